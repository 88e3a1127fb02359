#include "compiler/sema/CheckConstants.h"

#include <set>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::mcpl {

namespace {

class ConstantChecker {
public:
    explicit ConstantChecker(DiagnosticEngine& diags)
        : diags_(diags), report_([this](const ConstantProblem& p) { diags_.error(p.location, p.message); }) {}

    void check_module(const Module& m) {
        // Cycles first: folding stops at a cycle, so its problems would go unseen.
        for (const auto& c : m.constants) {
            std::set<const Decl*> seen;
            if (c->init && defined_through(*c->init, *c, seen))
                diags_.error(c->forms.back().location,
                             fmt::format("constant '{}' is defined through itself", c->name()));
        }
        for (const auto& c : m.constants) check_decl(*c);
        for (const auto& r : m.records)
            for (const auto& field : r->fields) check_decl(*field);
        for (const auto& f : m.functions) {
            check_type(f->return_type);
            for (const auto& p : f->params) check_decl(*p);
            if (f->body)
                for_each_stmt(*f->body, [&](const Stmt& s) { for_each_own_expr(s, [&](const Expr& e) { check(e); }); });
        }
    }

private:
    // Whether `e` refers to `target`, directly or through the initialisers
    // of other constants.
    static bool defined_through(const Expr& e, const Decl& target, std::set<const Decl*>& seen) {
        bool found = false;
        for_each_var(e, [&](const Expr& var) {
            const Decl* d = var.decl;
            if (found || !d) return;
            if (d == &target) found = true;
            else if (d->is_const && d->init && seen.insert(d).second)
                found = defined_through(*d->init, target, seen);
        });
        return found;
    }

    void check(const Expr& e) { checked_constant_int_value(e, report_); }

    void check_type(const TypeExpr& t) {
        for (const auto& group : t.dimensions)
            for (const ExprPtr& extent : group) check(*extent);
    }

    void check_decl(const Decl& d) {
        for (const BasicDecl& form : d.forms) check_type(form.type);
        if (d.init) check(*d.init);
    }

    DiagnosticEngine& diags_;
    ConstantProblemSink report_;
};

}  // namespace

void check_constants(const Program& program, DiagnosticEngine& diags) {
    ConstantChecker checker(diags);
    for (const auto& m : program.modules) checker.check_module(*m);
}

}  // namespace mcl::mcpl
