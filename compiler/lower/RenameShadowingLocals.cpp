#include "compiler/lower/RenameShadowingLocals.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/ast/AstWalk.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/translate/OuterNames.h"

namespace mcl::lower {

namespace {

using mcpl::BasicDecl;
using mcpl::Expr;
using mcpl::Stmt;

class ShadowRenamer {
public:
    ShadowRenamer(mcpl::Function& f, const mcpl::Program& program, const translate::OuterNames& outer)
        : f_(f), names_(f, outer) {
        // module constants, functions and records: of any module, which is
        // more than a function sees
        visible_.emplace_back();
        for (const auto& m : program.modules) {
            for (const auto& c : m->constants) visible_.back().insert(c->name());
            for (const auto& fn : m->functions) visible_.back().insert(fn->name);
            for (const auto& r : m->records) visible_.back().insert(r->name);
        }
        visible_.emplace_back();
        for (const auto& p : f.params)
            for (const BasicDecl& form : p->forms) visible_.back().insert(form.name);
    }

    // Whether a local was renamed.
    bool run() {
        walk(*f_.body);
        if (renamed_.empty()) return false;
        mcpl::for_each_stmt(*f_.body, [&](Stmt& s) {
            mcpl::for_each_own_expr(s, [&](Expr& e) {
                mcpl::for_each_var(e, [&](Expr& v) {
                    auto it = renamed_.find(mcpl::named_form(v));
                    if (it != renamed_.end()) v.var[0].name = it->second;
                });
            });
        });
        return true;
    }

private:
    // The statements of `s` in scopes as the checker opens them: a block, a
    // for loop and a foreach each open one.
    void walk(Stmt& s) {
        const bool opens = s.kind == Stmt::Kind::Block || s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::Foreach;
        if (opens) visible_.emplace_back();
        if (s.decl)
            for (BasicDecl& form : s.decl->forms) declare(form);
        for (BasicDecl& view : s.views) declare(view);
        mcpl::for_each_child_stmt(s, [&](Stmt& child) { walk(child); });
        if (opens) visible_.pop_back();
    }

    void declare(BasicDecl& form) {
        bool hides = false;
        for (const auto& scope : visible_) hides = hides || scope.count(form.name) > 0;
        if (hides) {
            form.name = names_.fresh(form.name);
            renamed_[&form] = form.name;
        }
        visible_.back().insert(form.name);
    }

    mcpl::Function& f_;
    std::vector<std::set<std::string>> visible_;  // the names of the scopes around, outermost first
    translate::FreshNames names_;                  // the new names
    std::map<const BasicDecl*, std::string> renamed_;
};

}  // namespace

bool rename_shadowing_locals(mcpl::Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags) {
    const translate::OuterNames outer = translate::outer_names(program, library);
    bool changed = false;
    for (auto& m : program.modules)
        for (auto& f : m->functions) changed = ShadowRenamer(*f, program, outer).run() || changed;
    return !changed ||
           mcpl::check_program(program, library, diags, {.launch_barriers = false, .source_warnings = false});
}

}  // namespace mcl::lower
