#include "compiler/ast/ConstantValue.h"

#include <algorithm>

namespace mcl::mcpl {

std::optional<int64_t> constant_int_value(const Expr& e, const ConstantLookup& lookup) {
    switch (e.kind) {
    case Expr::Kind::IntLiteral: return e.int_value;
    case Expr::Kind::Var:
        if (e.hardware) return e.hardware->value;
        if (e.var.size() != 1 || !e.var[0].indices.empty()) return std::nullopt;
        return lookup(e);
    case Expr::Kind::Unary: {
        if (e.op != "-") return std::nullopt;
        auto a = constant_int_value(*e.args[0], lookup);
        return a ? std::optional<int64_t>(-*a) : std::nullopt;
    }
    case Expr::Kind::Binary: {
        auto a = constant_int_value(*e.args[0], lookup);
        auto b = constant_int_value(*e.args[1], lookup);
        if (!a || !b) return std::nullopt;
        if (e.op == "+") return *a + *b;
        if (e.op == "-") return *a - *b;
        if (e.op == "*") return *a * *b;
        if (e.op == "/" && *b != 0) return *a / *b;
        return std::nullopt;
    }
    case Expr::Kind::Call: {
        if (e.args.size() != 2) return std::nullopt;
        auto a = constant_int_value(*e.args[0], lookup);
        auto b = constant_int_value(*e.args[1], lookup);
        if (!a || !b) return std::nullopt;
        if (e.callee == "divide_up" && *b > 0) return (*a + *b - 1) / *b;
        if (e.callee == "min") return std::min(*a, *b);
        if (e.callee == "max") return std::max(*a, *b);
        return std::nullopt;
    }
    default: return std::nullopt;
    }
}

std::optional<int64_t> checked_constant_int_value(const Expr& e) {
    return constant_int_value(e, [](const Expr& var) -> std::optional<int64_t> {
        const Decl* d = var.decl;
        if (!d || !d->is_const || !d->init || d->forms.front().resolved_type.is_array()) return std::nullopt;
        return checked_constant_int_value(*d->init);
    });
}

}  // namespace mcl::mcpl
