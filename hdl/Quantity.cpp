#include "hdl/Quantity.h"

#include <fmt/format.h>

namespace mcl::hdl {

namespace {

EvalError overflow(SourceLocation loc) { return {loc, "value does not fit in 64 bits"}; }

std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
    return r;
}

int64_t prefix_factor(char prefix, bool binary) {
    int64_t base = binary ? 1024 : 1000;
    switch (prefix) {
    case 'k': return base;
    case 'M': return base * base;
    case 'G': return base * base * base;
    default: return 1;
    }
}

bool is_bits(const std::string& base) { return base == "bit" || base == "bits"; }

// How a unit maps onto a dimension: bytes-per-unit (or the plain factor) and
// whether it divides by eight (bits to bytes) or multiplies by eight.
struct Conversion {
    int64_t multiply = 1;
    int64_t divide = 1;
};

std::optional<Conversion> conversion(const Unit& u, Dimension d) {
    switch (d) {
    case Dimension::Bytes:
        if (!u.per.empty()) return std::nullopt;
        if (u.base == "B") return Conversion{prefix_factor(u.prefix, true), 1};
        if (is_bits(u.base)) return Conversion{prefix_factor(u.prefix, true), 8};
        return std::nullopt;
    case Dimension::Bits:
        if (!u.per.empty()) return std::nullopt;
        if (u.base == "B") return Conversion{8 * prefix_factor(u.prefix, true), 1};
        if (is_bits(u.base)) return Conversion{prefix_factor(u.prefix, true), 1};
        return std::nullopt;
    case Dimension::Cycles:
        if (!u.per.empty() || (u.base != "cycle" && u.base != "cycles")) return std::nullopt;
        return Conversion{prefix_factor(u.prefix, false), 1};
    case Dimension::BytesPerSecond:
        if (u.per != "s") return std::nullopt;
        if (u.base == "B") return Conversion{prefix_factor(u.prefix, false), 1};
        if (is_bits(u.base)) return Conversion{prefix_factor(u.prefix, false), 8};
        return std::nullopt;
    case Dimension::Hertz:
        if (!u.per.empty() || u.base != "Hz") return std::nullopt;
        return Conversion{prefix_factor(u.prefix, false), 1};
    case Dimension::Count:
    case Dimension::Boolean: return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

Evaluated<int64_t> evaluate_integer(const Expr& e) {
    switch (e.kind) {
    case Expr::Kind::Int: return e.value;
    case Expr::Kind::Negate: {
        auto v = evaluate_integer(e.operands[0]);
        if (auto* err = std::get_if<EvalError>(&v)) return *err;
        int64_t x = std::get<int64_t>(v);
        if (x == INT64_MIN) return overflow(e.location);
        return -x;
    }
    case Expr::Kind::Binary: {
        auto l = evaluate_integer(e.operands[0]);
        if (auto* err = std::get_if<EvalError>(&l)) return *err;
        auto r = evaluate_integer(e.operands[1]);
        if (auto* err = std::get_if<EvalError>(&r)) return *err;
        int64_t a = std::get<int64_t>(l), b = std::get<int64_t>(r), out = 0;
        bool bad = false;
        switch (e.op) {
        case '+': bad = __builtin_add_overflow(a, b, &out); break;
        case '-': bad = __builtin_sub_overflow(a, b, &out); break;
        case '*': bad = __builtin_mul_overflow(a, b, &out); break;
        case '/':
        case '%':
            if (b == 0) return EvalError{e.location, "division by zero"};
            if (a == INT64_MIN && b == -1) return overflow(e.location);
            out = e.op == '/' ? a / b : a % b;
            break;
        default: return EvalError{e.location, "expected an integer expression"};
        }
        if (bad) return overflow(e.location);
        return out;
    }
    default: return EvalError{e.location, "expected an integer expression"};
    }
}

Evaluated<Quantity> evaluate_quantity(const Expr& value, const std::optional<Unit>& unit,
                                      Dimension dimension, bool allow_unlimited) {
    if (dimension == Dimension::Boolean) {
        if (unit) return EvalError{unit->location, "a boolean property takes no unit"};
        if (value.is_keyword("true")) return Quantity{false, 1};
        if (value.is_keyword("false")) return Quantity{false, 0};
        return EvalError{value.location, "expected 'true' or 'false'"};
    }
    Quantity q;
    if (value.is_keyword("unlimited")) {
        if (!allow_unlimited) return EvalError{value.location, "'unlimited' is not allowed here"};
        q.unlimited = true;
    } else {
        auto v = evaluate_integer(value);
        if (auto* err = std::get_if<EvalError>(&v)) return *err;
        q.value = std::get<int64_t>(v);
        if (q.value < 0) return EvalError{value.location, "value must not be negative"};
    }
    if (dimension == Dimension::Count) {
        if (unit) return EvalError{unit->location, fmt::format("unexpected unit '{}'", unit->spelling)};
        return q;
    }
    if (!unit)
        return EvalError{value.location,
                         fmt::format("missing unit; expected {}", dimension_units(dimension))};
    auto conv = conversion(*unit, dimension);
    if (!conv)
        return EvalError{unit->location, fmt::format("wrong unit '{}'; expected {}", unit->spelling,
                                                     dimension_units(dimension))};
    if (q.unlimited) return q;
    auto scaled = checked_mul(q.value, conv->multiply);
    if (!scaled) return overflow(value.location);
    if (*scaled % conv->divide != 0)
        return EvalError{value.location,
                         fmt::format("{} {} is not a whole number of bytes", q.value, unit->spelling)};
    q.value = *scaled / conv->divide;
    return q;
}

}  // namespace mcl::hdl
