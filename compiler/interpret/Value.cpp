#include "compiler/interpret/Value.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace mcl::interpret {

using mcpl::Primitive;

namespace {

constexpr int64_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();

Outcome fail(std::string message) { return Outcome{Scalar{}, std::move(message)}; }
Outcome ok(Scalar v) { return Outcome{v, {}}; }

// C's usual arithmetic conversions: the type both operands become.
Primitive common_type(const Scalar& a, const Scalar& b) {
    if (a.type == Primitive::Double || b.type == Primitive::Double) return Primitive::Double;
    if (a.type == Primitive::Float || b.type == Primitive::Float) return Primitive::Float;
    return Primitive::Int;
}

Outcome checked_int(int64_t v, const std::string& what) {
    if (v < kIntMin || v > kIntMax) return fail(fmt::format("signed integer overflow: {} does not fit an int", what));
    return ok(Scalar::of_int(v));
}

Outcome floating(const std::string& op, double x, double y, Primitive type) {
    auto make = [&](double v) { return ok(type == Primitive::Float ? Scalar::of_float(v) : Scalar::of_double(v)); };
    if (op == "+") return make(x + y);
    if (op == "-") return make(x - y);
    if (op == "*") return make(x * y);
    if (op == "/") return make(x / y);
    if (std::optional<bool> c = mcpl::compare(op, x, y)) return ok(Scalar::of_bool(*c));
    return fail(fmt::format("'{}' is not defined on floating-point numbers", op));
}

Outcome integral(const std::string& op, int64_t x, int64_t y) {
    std::string what = fmt::format("{} {} {}", x, op, y);
    if (op == "+") return checked_int(x + y, what);
    if (op == "-") return checked_int(x - y, what);
    if (op == "*") return checked_int(x * y, what);
    if (op == "/" || op == "%") {
        if (y == 0) return fail(fmt::format("{} by zero: {}", op == "/" ? "division" : "remainder", what));
        if (x == kIntMin && y == -1) return fail(fmt::format("signed integer overflow: {}", what));
        return ok(Scalar::of_int(op == "/" ? x / y : x % y));
    }
    if (op == "<<" || op == ">>") {
        if (y < 0 || y > 31) return fail(fmt::format("shift by {}, outside 0..31: {}", y, what));
        if (op == ">>") return ok(Scalar::of_int(x >> y));
        if (x < 0) return fail(fmt::format("left shift of a negative number: {}", what));
        return checked_int(x << y, what);
    }
    if (op == "&") return ok(Scalar::of_int(x & y));
    if (op == "|") return ok(Scalar::of_int(x | y));
    if (std::optional<bool> c = mcpl::compare(op, x, y)) return ok(Scalar::of_bool(*c));
    return fail(fmt::format("unknown operator '{}'", op));
}

}  // namespace

Scalar Scalar::of_float(double v) {
    return Scalar{Primitive::Float, 0, static_cast<double>(static_cast<float>(v)), false};
}

std::string Scalar::str() const {
    if (poison) return "<unwritten>";
    if (type == Primitive::Float) return fmt::format("{}", static_cast<float>(f));
    if (type == Primitive::Double) return fmt::format("{}", f);
    if (type == Primitive::Bool) return i ? "true" : "false";
    return fmt::format("{}", i);
}

Outcome convert(const Scalar& v, Primitive to) {
    if (v.poison) return ok(Scalar::poisoned(to));
    switch (to) {
    case Primitive::Float: return ok(Scalar::of_float(v.as_double()));
    case Primitive::Double: return ok(Scalar::of_double(v.as_double()));
    case Primitive::Bool: return ok(Scalar::of_bool(v.truth()));
    case Primitive::Int:
        if (!v.is_floating()) return checked_int(v.i, fmt::format("{}", v.i));
        if (!(v.f > -2147483649.0 && v.f < 2147483648.0))
            return fail(fmt::format("{} does not fit an int", v.f));
        return ok(Scalar::of_int(static_cast<int64_t>(v.f)));
    case Primitive::Byte: {
        if (v.is_floating()) {
            if (!(v.f > -1.0 && v.f < 256.0)) return fail(fmt::format("{} does not fit a byte", v.f));
            return ok(Scalar{Primitive::Byte, static_cast<int64_t>(v.f), 0, false});
        }
        return ok(Scalar{Primitive::Byte, ((v.i % 256) + 256) % 256, 0, false});  // unsigned: modulo 256
    }
    case Primitive::Void: break;
    }
    return fail("conversion to void");
}

Outcome binary(const std::string& op, const Scalar& a, const Scalar& b) {
    Primitive type = common_type(a, b);
    if (a.poison || b.poison) return ok(Scalar::poisoned(mcpl::is_comparison(op) ? Primitive::Bool : type));
    if (type == Primitive::Int) return integral(op, a.i, b.i);
    // Both operands become floats first (an int above 2^24 rounds, as C
    // converts it); the exact result of + - * / of two floats, rounded to
    // float once, is the float operation's result.
    if (type == Primitive::Float)
        return floating(op, static_cast<float>(a.as_double()), static_cast<float>(b.as_double()), type);
    return floating(op, a.as_double(), b.as_double(), type);
}

Outcome unary(const std::string& op, const Scalar& a) {
    if (op == "!") return ok(a.poison ? Scalar::poisoned(Primitive::Bool) : Scalar::of_bool(!a.truth()));
    if (a.poison) return ok(Scalar::poisoned(a.is_floating() ? a.type : Primitive::Int));
    if (a.type == Primitive::Float) return ok(Scalar::of_float(-a.f));
    if (a.type == Primitive::Double) return ok(Scalar::of_double(-a.f));
    return checked_int(-a.i, fmt::format("-({})", a.i));
}

Outcome power(const Scalar& a, const Scalar& b, Primitive result) {
    if (a.poison || b.poison) return ok(Scalar::poisoned(result));
    if (result == Primitive::Int || result == Primitive::Byte) {
        if (a.is_floating() || b.is_floating())
            return convert(Scalar::of_double(std::pow(a.as_double(), b.as_double())), result);
        int64_t base = a.i, exponent = b.i;
        if (exponent < 0) {
            // pow gives a fraction that the conversion to an integer truncates
            if (base == 0) return fail(fmt::format("0 ^ {} is a division by zero", exponent));
            int64_t v = base == 1 ? 1 : base == -1 ? (exponent % 2 == 0 ? 1 : -1) : 0;
            return convert(Scalar::of_int(v), result);
        }
        if (base == 0 || base == 1) return convert(Scalar::of_int(exponent == 0 ? 1 : base), result);
        if (base == -1) return convert(Scalar::of_int(exponent % 2 == 0 ? 1 : -1), result);
        int64_t v = 1;
        for (int64_t k = 0; k < exponent; ++k) {  // |base| >= 2: overflows within 31 steps
            v *= base;
            if (v < kIntMin || v > kIntMax) return fail(fmt::format("signed integer overflow: {} ^ {}", base, exponent));
        }
        return convert(Scalar::of_int(v), result);
    }
    Primitive type = common_type(a, b) == Primitive::Double || result == Primitive::Double ? Primitive::Double
                                                                                          : Primitive::Float;
    double v = type == Primitive::Float
                   ? static_cast<double>(std::pow(static_cast<float>(a.as_double()), static_cast<float>(b.as_double())))
                   : std::pow(a.as_double(), b.as_double());
    return convert(Scalar::of_double(v), result);
}

}  // namespace mcl::interpret
