#include "compiler/ast/ConstantValue.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"

namespace mcl::mcpl {

namespace {

bool in_int_range(int64_t v) { return v >= kIntMin && v <= kIntMax; }

bool is_floating(const Expr& e) {
    return !e.type.is_array() && (e.type.primitive == Primitive::Float || e.type.primitive == Primitive::Double);
}

// base ^ exponent, or nullopt when it leaves int's range. Operands are within
// int's range, so each product fits in 64 bits before it is checked.
std::optional<int64_t> int_power(int64_t base, int64_t exponent) {
    int64_t result = 1;
    for (int64_t i = 0; i < exponent; ++i) {
        result *= base;
        if (!in_int_range(result)) return std::nullopt;
        if (result == 0 || result == 1) return result;                  // 0 and 1 stay
        if (result == -1) return exponent % 2 == 0 ? 1 : -1;           // base -1
    }
    return result;
}

class Folder {
public:
    Folder(const ConstantLookup& lookup, const ConstantProblemSink& problems) : lookup_(lookup), problems_(problems) {}

    std::optional<int64_t> fold(const Expr& e) {
        switch (e.kind) {
        case Expr::Kind::IntLiteral: return literal(e, e.int_value);
        case Expr::Kind::Var: return var(e);
        case Expr::Kind::Unary: return unary(e);
        case Expr::Kind::Binary: return binary(e);
        case Expr::Kind::Call: return call(e);
        default: return std::nullopt;
        }
    }

private:
    std::optional<int64_t> problem(const Expr& at, std::string message) {
        if (problems_) problems_(ConstantProblem{at.location, std::move(message)});
        return std::nullopt;
    }

    std::optional<int64_t> in_range(const Expr& e, int64_t v, const char* what) {
        if (in_int_range(v)) return v;
        return problem(e, fmt::format("{} {} overflows int (32-bit: {} to {})", what, v, kIntMin, kIntMax));
    }

    std::optional<int64_t> literal(const Expr& e, int64_t v) {
        if (in_int_range(v)) return v;
        return problem(e, fmt::format("integer literal {} is out of the range of int (32-bit: {} to {})", v,
                                      kIntMin, kIntMax));
    }

    std::optional<int64_t> var(const Expr& e) {
        if (e.hardware) return in_range(e, e.hardware->value, "hardware value");
        for (const VarPart& part : e.var)
            for (const auto& group : part.indices)
                for (const ExprPtr& index : group) fold(*index);
        if (e.var.size() != 1 || !e.var[0].indices.empty()) return std::nullopt;
        return lookup_(e);
    }

    std::optional<int64_t> unary(const Expr& e) {
        const Expr& operand = *e.args[0];
        // -2147483648 is int's least value, though 2147483648 alone is not an int.
        if (e.op == "-" && operand.kind == Expr::Kind::IntLiteral) return literal(e, -operand.int_value);
        auto a = fold(operand);
        if (e.op != "-" || !a) return std::nullopt;
        return in_range(e, -*a, "the result");
    }

    std::optional<int64_t> binary(const Expr& e) {
        auto a = fold(*e.args[0]);
        auto b = fold(*e.args[1]);
        const std::string& op = e.op;
        if ((op == "/" || op == "%") && b == 0 && !is_floating(e))
            return problem(*e.args[1], op == "/" ? "division by zero" : "modulo by zero");
        if ((op == "<<" || op == ">>") && b && (*b < 0 || *b > 31))
            return problem(*e.args[1], fmt::format("shift by {}, outside 0 to 31", *b));
        if (!a || !b) return std::nullopt;
        if (op == "+") return in_range(e, *a + *b, "the result");
        if (op == "-") return in_range(e, *a - *b, "the result");
        if (op == "*") return in_range(e, *a * *b, "the result");
        if (op == "/") return in_range(e, *a / *b, "the result");
        if (op == "%") return *a % *b;
        if (op == "<<") {
            if (*a < 0) return problem(e, fmt::format("left shift of a negative number: {} << {}", *a, *b));
            return in_range(e, *a << *b, "the result");
        }
        if (op == ">>") return *a >> *b;
        if (op == "&") return *a & *b;
        if (op == "|") return *a | *b;
        if (op == "^" && *b >= 0) {
            if (auto v = int_power(*a, *b)) return v;
            return problem(e, fmt::format("{} ^ {} overflows int (32-bit: {} to {})", *a, *b, kIntMin, kIntMax));
        }
        return std::nullopt;
    }

    std::optional<int64_t> call(const Expr& e) {
        std::vector<std::optional<int64_t>> args;
        for (const ExprPtr& arg : e.args) args.push_back(fold(*arg));
        if (e.function || args.size() != 2) return std::nullopt;  // user functions do not fold
        if (e.callee == "divide_up" && args[1] == 0) return problem(*e.args[1], "divide_up by zero");
        if (!args[0] || !args[1]) return std::nullopt;
        int64_t a = *args[0], b = *args[1];
        if (e.callee == "divide_up" && b > 0) return in_range(e, a > 0 ? (a + b - 1) / b : a / b, "the result");
        if (e.callee == "min") return std::min(a, b);
        if (e.callee == "max") return std::max(a, b);
        return std::nullopt;
    }

    const ConstantLookup& lookup_;
    const ConstantProblemSink& problems_;
};

// A `const` scalar's value; `in_progress` stops a constant defined through
// itself (the checker reports that as an error).
std::optional<int64_t> checked_value(const Expr& e, const ConstantProblemSink& problems,
                                     std::vector<const Decl*>& in_progress) {
    return constant_int_value(
        e,
        [&](const Expr& var) -> std::optional<int64_t> {
            const Decl* d = var.decl;
            if (!d || !d->is_const || !d->init || d->forms.front().resolved_type.is_array()) return std::nullopt;
            if (std::find(in_progress.begin(), in_progress.end(), d) != in_progress.end()) return std::nullopt;
            in_progress.push_back(d);
            auto v = checked_value(*d->init, {}, in_progress);  // its own problems are reported at it
            in_progress.pop_back();
            return v;
        },
        problems);
}

}  // namespace

std::optional<int64_t> constant_int_value(const Expr& e, const ConstantLookup& lookup,
                                          const ConstantProblemSink& problems) {
    return Folder(lookup, problems).fold(e);
}

std::optional<int64_t> checked_constant_int_value(const Expr& e, const ConstantProblemSink& problems) {
    std::vector<const Decl*> in_progress;
    return checked_value(e, problems, in_progress);
}

bool names_unwritten_scalar(const Expr& e) {
    return e.kind == Expr::Kind::Var && e.var.size() == 1 && e.var[0].indices.empty() && e.decl &&
           !e.decl->is_written && !e.type.is_array();
}

namespace {

bool same_int_value_within(const Expr& a, const Expr& b, int depth) {
    auto ca = checked_constant_int_value(a), cb = checked_constant_int_value(b);
    if (ca || cb) return ca && cb && *ca == *cb;
    if (depth > 16) return false;
    // a scalar that nothing writes has the value it was declared with
    if (names_unwritten_scalar(a) && names_unwritten_scalar(b) && a.decl == b.decl) return true;
    const Expr* value_a = names_unwritten_scalar(a) ? a.decl->init.get() : nullptr;
    const Expr* value_b = names_unwritten_scalar(b) ? b.decl->init.get() : nullptr;
    if (value_a || value_b)
        return same_int_value_within(value_a ? *value_a : a, value_b ? *value_b : b, depth + 1);
    if (a.kind != b.kind || a.op != b.op || a.args.size() != b.args.size()) return false;
    switch (a.kind) {
    case Expr::Kind::Call:
        if (a.function || b.function || a.callee != b.callee) return false;
        break;
    case Expr::Kind::Unary:
    case Expr::Kind::Binary: break;
    default: return false;
    }
    for (size_t i = 0; i < a.args.size(); ++i)
        if (!same_int_value_within(*a.args[i], *b.args[i], depth + 1)) return false;
    return true;
}

}  // namespace

bool same_int_value(const Expr& a, const Expr& b) { return same_int_value_within(a, b, 0); }

std::optional<ConstantLoop> constant_loop(const Stmt& loop) {
    const Decl& index = *loop.decl;
    auto names_index = [&](const Expr* e) { return e && e->kind == Expr::Kind::Var && e->decl == &index; };
    std::optional<int64_t> first = index.init ? checked_constant_int_value(*index.init) : 0;
    const Expr& condition = *loop.condition;
    if (!first || condition.kind != Expr::Kind::Binary || (condition.op != "<" && condition.op != "<=") ||
        !names_index(condition.args[0].get()))
        return std::nullopt;
    std::optional<int64_t> bound = checked_constant_int_value(*condition.args[1]);
    if (!bound) return std::nullopt;
    if (condition.op == "<=") ++*bound;
    const Stmt& step = *loop.step;
    std::optional<int64_t> stride;
    if (step.kind == Stmt::Kind::Step && step.op == "++") stride = 1;
    if (step.kind == Stmt::Kind::Assign && step.op == "+=" && step.value)
        stride = checked_constant_int_value(*step.value);
    if (!names_index(step.target.get()) || !stride || *stride <= 0) return std::nullopt;
    bool assigned = false;
    for_each_stmt(*loop.loop_body, [&](const Stmt& s) {
        for_each_own_write(
            s, [](const Decl& param) { return param.is_written; },
            [&](const Expr& v, const Expr*) { assigned = assigned || names_index(&v); });
    });
    if (assigned) return std::nullopt;
    int64_t trips = *bound <= *first ? 0 : (*bound - *first + *stride - 1) / *stride;
    if (trips > kIntMax) return std::nullopt;
    return ConstantLoop{*first, *stride, trips};
}

std::vector<int64_t> record_field_extents(const BasicDecl& field) {
    std::vector<int64_t> extents;
    for (const auto& group : field.type.dimensions)
        for (const auto& extent : group) extents.push_back(checked_constant_int_value(*extent).value_or(0));
    return extents;
}

int64_t record_field_element_count(const BasicDecl& field) {
    int64_t count = 1;
    for (int64_t extent : record_field_extents(field))
        if (extent <= 0 || __builtin_mul_overflow(count, extent, &count)) return 0;
    return count;
}

}  // namespace mcl::mcpl
