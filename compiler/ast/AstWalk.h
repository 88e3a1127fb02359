// Generic traversals of the MCPL AST, so that passes do not each repeat
// which fields of a node hold sub-expressions and sub-statements.
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "compiler/ast/Ast.h"

namespace mcl::mcpl {

// Calls `visit(S&)` on each direct child statement of `s`; S is Stmt or
// const Stmt, as `s` is.
template <typename S, typename Visit>
void for_each_child_stmt(S& s, Visit&& visit) {
    for (auto& child : s.body) visit(static_cast<S&>(*child));
    for (auto* child : {&s.then_branch, &s.else_branch, &s.step, &s.loop_body})
        if (*child) visit(static_cast<S&>(**child));
}

// The statements of a block, or `s` alone: a body as a statement list.
inline std::vector<const Stmt*> statements_of(const Stmt& s) {
    std::vector<const Stmt*> list;
    if (s.kind != Stmt::Kind::Block) {
        list.push_back(&s);
        return list;
    }
    for (const auto& child : s.body) list.push_back(child.get());
    return list;
}

// Calls `visit(S&)` on `s` and every statement nested in it, parents first.
template <typename S, typename Visit>
void for_each_stmt(S& s, Visit&& visit) {
    visit(s);
    for_each_child_stmt(s, [&](S& child) { for_each_stmt(child, visit); });
}

// Whether running `s` may run a `return` that ends the unit running it (the
// function's, or the innermost foreach's around it): a return inside a
// foreach nested in `s` ends that loop's unit instead.
inline bool may_return(const Stmt& s) {
    if (s.kind == Stmt::Kind::Return) return true;
    if (s.kind == Stmt::Kind::Foreach) return false;
    bool returns = false;
    for_each_child_stmt(s, [&](const Stmt& child) { returns = returns || may_return(child); });
    return returns;
}

// The names declared in `s` and the statements inside it: variables and
// `as` views.
inline std::set<std::string> declared_names(const Stmt& s) {
    std::set<std::string> names;
    for_each_stmt(s, [&](const Stmt& c) {
        if (c.decl)
            for (const auto& form : c.decl->forms) names.insert(form.name);
        for (const auto& v : c.views) names.insert(v.name);
    });
    return names;
}

// The names a function declares: its parameters' and its body's.
inline std::set<std::string> function_names(const Function& f) {
    std::set<std::string> names = declared_names(*f.body);
    for (const auto& p : f.params)
        for (const auto& form : p->forms) names.insert(form.name);
    return names;
}

// The form a variable reference names: the `as` view it was used through,
// or its declaration's first (a reference built by a pass names no view).
inline const BasicDecl* named_form(const Expr& var) {
    return var.form ? var.form : var.decl ? &var.decl->forms.front() : nullptr;
}

// Calls `visit(E&)` on each top-level expression that `s` itself evaluates
// (not those of its child statements): declared array extents and
// initializers, `as` view extents, targets, values, calls, conditions and
// foreach counts. E is Expr or const Expr, as S is Stmt or const Stmt.
template <typename S, typename Visit>
void for_each_own_expr(S& s, Visit&& visit) {
    using E = std::conditional_t<std::is_const_v<S>, const Expr, Expr>;
    auto expr = [&](const ExprPtr& e) {
        if (e) visit(static_cast<E&>(*e));
    };
    auto type = [&](const TypeExpr& t) {
        for (const auto& group : t.dimensions)
            for (const ExprPtr& extent : group) expr(extent);
    };
    if (s.decl) {
        for (const BasicDecl& form : s.decl->forms) type(form.type);
        expr(s.decl->init);
    }
    for (const BasicDecl& view : s.views) type(view.type);
    for (const ExprPtr* e : {&s.target, &s.value, &s.call, &s.condition, &s.count}) expr(*e);
}

// Calls `visit(E&)` on `e` and every expression nested in it (operands,
// call arguments and indices), parents first; E is Expr or const Expr.
template <typename E, typename Visit>
void for_each_expr(E& e, Visit&& visit) {
    visit(e);
    for (const ExprPtr& arg : e.args) for_each_expr(static_cast<E&>(*arg), visit);
    for (const VarPart& part : e.var)
        for (const auto& group : part.indices)
            for (const ExprPtr& index : group) for_each_expr(static_cast<E&>(*index), visit);
}

// Calls `visit(const Expr&)` on every Call in `e`, nested ones included.
template <typename Visit>
void for_each_call(const Expr& e, Visit&& visit) {
    for_each_expr(e, [&](const Expr& sub) {
        if (sub.kind == Expr::Kind::Call) visit(sub);
    });
}

// Calls `visit(const Expr&)` on every Call in the expressions `s` itself
// evaluates (for_each_own_expr), not in its child statements.
template <typename Visit>
void for_each_own_call(const Stmt& s, Visit&& visit) {
    for_each_own_expr(s, [&](const Expr& e) { for_each_call(e, visit); });
}

// Calls `visit(const Expr& variable, const Expr* call)` on each variable
// reference that `s` itself writes (not its child statements): the target
// of an assignment or step, both sides of a swap (`call` null), and each
// variable passed to a callee parameter that `writes(const Decl&)` says is
// written (`call` the call). `writes` is a parameter because
// InferReadWrite asks while it is still computing Decl::is_written.
template <typename Writes, typename Visit>
void for_each_own_write(const Stmt& s, Writes&& writes, Visit&& visit) {
    if (s.kind == Stmt::Kind::Assign || s.kind == Stmt::Kind::Step || s.kind == Stmt::Kind::Swap)
        visit(*s.target, static_cast<const Expr*>(nullptr));
    if (s.kind == Stmt::Kind::Swap) visit(*s.value, static_cast<const Expr*>(nullptr));
    for_each_own_call(s, [&](const Expr& call) {
        if (!call.function) return;
        const auto& params = call.function->params;
        for (size_t i = 0; i < std::min(call.args.size(), params.size()); ++i)
            if (writes(*params[i]) && call.args[i]->kind == Expr::Kind::Var) visit(*call.args[i], &call);
    });
}

// Calls `visit(const Expr&)` on every Call in `s` and the statements nested
// in it: the calls a function body makes directly.
template <typename Visit>
void for_each_call_in(const Stmt& s, Visit&& visit) {
    for_each_stmt(s, [&](const Stmt& inner) { for_each_own_call(inner, visit); });
}

// Calls `visit(E&)` on every variable reference in `e`, those in indices and
// call arguments included; E is Expr or const Expr, as `e` is.
template <typename E, typename Visit>
void for_each_var(E& e, Visit&& visit) {
    for_each_expr(e, [&](E& sub) {
        if (sub.kind == Expr::Kind::Var) visit(sub);
    });
}

}  // namespace mcl::mcpl
