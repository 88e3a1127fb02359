#include "compiler/sema/CheckBarrierUniformity.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/sema/BarrierScopes.h"

namespace mcl::mcpl {

namespace {

// The per-unit variables of some foreach loops that may hold a different
// value in each of their units.
class VaryingVariables {
public:
    // `synchronised`: the foreach loops whose units may differ, outermost first.
    explicit VaryingVariables(const std::vector<const Stmt*>& synchronised) {
        for (const Stmt* f : synchronised) {
            indices_.insert(f->decl.get());
            varying_.insert(f->decl.get());
            for_each_stmt(*f->loop_body, [&](const Stmt& s) {
                if (s.decl) per_unit_.insert(s.decl.get());
            });
        }
        // Each round marks more; a round that marks nothing ends it.
        for (size_t before = SIZE_MAX; before != varying_.size();) {
            before = varying_.size();
            walk(*synchronised.front()->loop_body, false);
        }
    }

    // A variable in `e` that may differ between the units, or null. Where
    // `e` names several, a unit's index, since that is where they come
    // from, and `last_resort` (a loop's own variable) only when alone.
    const Expr* varying_in(const Expr& e, const Decl* last_resort = nullptr) const {
        const Expr* found = nullptr;
        auto rank = [&](const Expr& v) { return indices_.count(v.decl) ? 2 : v.decl == last_resort ? 0 : 1; };
        for_each_var(e, [&](const Expr& v) {
            if (varying_.count(v.decl) && (!found || rank(v) > rank(*found))) found = &v;
        });
        return found;
    }

private:
    bool varies(const ExprPtr& e) const { return e && varying_in(*e); }

    void mark(const Expr& target) {
        if (target.decl && per_unit_.count(target.decl)) varying_.insert(target.decl);
    }

    // `control`: whether the units may disagree on reaching `s`.
    void walk(const Stmt& s, bool control) {
        for_each_own_call(s, [&](const Expr& call) { mark_written_arguments(call, control); });
        switch (s.kind) {
            case Stmt::Kind::Decl:
                if (control || varies(s.decl->init)) varying_.insert(s.decl.get());
                break;
            case Stmt::Kind::Assign:
            case Stmt::Kind::Step:
                if (control || varies(s.value) || varies(s.target)) mark(*s.target);
                break;
            case Stmt::Kind::Swap:
                if (control || varies(s.value) || varies(s.target)) {
                    mark(*s.target);
                    mark(*s.value);
                }
                break;
            case Stmt::Kind::If: {
                bool inner = control || varies(s.condition);
                walk(*s.then_branch, inner);
                if (s.else_branch) walk(*s.else_branch, inner);
                break;
            }
            case Stmt::Kind::For: {
                if (s.decl && (control || varies(s.decl->init))) varying_.insert(s.decl.get());
                bool inner = control || varies(s.condition);
                if (s.step) walk(*s.step, inner);
                walk(*s.loop_body, inner);
                break;
            }
            default: for_each_child_stmt(s, [&](const Stmt& child) { walk(child, control); });
        }
    }

    // A function that writes a parameter may write what differs between
    // the units into the variable passed there.
    void mark_written_arguments(const Expr& call, bool control) {
        if (!call.function) return;
        bool any_varies = control;
        for (const ExprPtr& arg : call.args) any_varies = any_varies || varying_in(*arg);
        if (!any_varies) return;
        const auto& params = call.function->params;
        for (size_t k = 0; k < call.args.size() && k < params.size(); ++k)
            if (params[k]->is_written && call.args[k]->kind == Expr::Kind::Var) mark(*call.args[k]);
    }

    std::set<const Decl*> indices_;   // of the units that may differ
    std::set<const Decl*> per_unit_;
    std::set<const Decl*> varying_;
};

class UniformityChecker {
public:
    UniformityChecker(const Function& fn, BarrierScopes& scopes, DiagnosticEngine& diags)
        : fn_(fn), scopes_(scopes), diags_(diags) {}

    void run() { visit(*fn_.body); }

private:
    void visit(const Stmt& s) {
        if (s.kind == Stmt::Kind::If || s.kind == Stmt::Kind::For) check_construct(s);
        if (s.kind == Stmt::Kind::If) check_return_before_barrier(s);
        for_each_own_expr(s, [&](const Expr& e) { check_skipped_operands(e, s); });
        if (s.kind == Stmt::Kind::Foreach) enclosing_.push_back(&s);
        path_.push_back(&s);
        for_each_child_stmt(s, [&](const Stmt& child) { visit(child); });
        path_.pop_back();
        if (s.kind == Stmt::Kind::Foreach) enclosing_.pop_back();
    }

    // A barrier inside the if or for `s`.
    void check_construct(const Stmt& s) {
        const Stmt& inside = s.kind == Stmt::Kind::If ? *s.then_branch : *s.loop_body;
        int scope = scopes_.scope(inside, fn_);
        if (s.else_branch) scope = std::min(scope, scopes_.scope(*s.else_branch, fn_));
        if (const Expr* cause = disagreeing(s, scope))
            diags_.warning(s.condition->location,
                           fmt::format("the units of '{}' may disagree on this condition (it depends on '{}'), so "
                                       "some may not reach {} inside it; every unit a barrier synchronises must "
                                       "reach it, or none",
                                       synchronised(scope).back()->name, cause->var.front().name,
                                       describe_barrier(s)));
    }

    // A call that reaches a barrier in the right operand of a `&&` or `||`
    // in `e` (of statement `s`), which the units skip when the left
    // operand decides: they may disagree on that operand.
    void check_skipped_operands(const Expr& e, const Stmt& s) {
        for_each_expr(e, [&](const Expr& op) {
            if (op.kind != Expr::Kind::Binary || (op.op != "&&" && op.op != "||")) return;
            for_each_call(*op.args[1], [&](const Expr& call) {
                if (!scopes_.call_reaches_barrier(call)) return;
                int scope = scopes_.scope(*call.function->body, *call.function);
                std::vector<const Stmt*> loops = synchronised(scope);
                if (loops.empty()) return;
                auto [entry, added] = varying_.try_emplace(loops, loops);
                if (const Expr* cause = entry->second.varying_in(*op.args[0], s.decl.get()))
                    diags_.warning(call.location,
                                   fmt::format("the units of '{}' may disagree on the left operand of '{}' (it "
                                               "depends on '{}'), so some may skip this call and the barrier in "
                                               "'{}' that the others wait at",
                                               loops.back()->name, op.op, cause->var.front().name, call.callee));
            });
        });
    }

    // A return inside the if `s`, and a barrier after it: in the statements
    // that follow it in the blocks around it, or in a loop around it (the
    // next iteration), up to the foreach whose unit it ends (or the top of
    // the function).
    void check_return_before_barrier(const Stmt& s) {
        if (!may_return(s)) return;
        int scope = BarrierScopes::kNoBarrier;
        const Stmt* later = nullptr;
        auto consider = [&](const Stmt& candidate) {
            int found = scopes_.scope(candidate, fn_);
            if (found < scope) {
                scope = found;
                later = &candidate;
            }
        };
        const Stmt* child = &s;
        for (auto ancestor = path_.rbegin(); ancestor != path_.rend(); child = *ancestor++) {
            const Stmt& a = **ancestor;
            if (a.kind == Stmt::Kind::Foreach) break;
            if (a.kind == Stmt::Kind::For) consider(*a.loop_body);
            if (a.kind != Stmt::Kind::Block) continue;
            auto at = std::find_if(a.body.begin(), a.body.end(), [&](const StmtPtr& b) { return b.get() == child; });
            for (++at; at < a.body.end(); ++at) consider(**at);
        }
        if (const Expr* cause = disagreeing(s, scope))
            diags_.warning(s.condition->location,
                           fmt::format("the units of '{}' may disagree on this condition (it depends on '{}'), so "
                                       "some may return before {} that the others wait at",
                                       synchronised(scope).back()->name, cause->var.front().name,
                                       describe_barrier(*later)));
    }

    // The foreach loops around the statement visited whose units a barrier
    // of `scope` synchronises.
    std::vector<const Stmt*> synchronised(int scope) const {
        std::vector<const Stmt*> loops;
        if (scope == BarrierScopes::kNoBarrier) return loops;
        for (const Stmt* f : enclosing_)
            if (scopes_.group_level(fn_, f->name) >= scope) loops.push_back(f);
        return loops;
    }

    // A variable of `s`'s condition on which the units a barrier of
    // `scope` synchronises may disagree, or null.
    const Expr* disagreeing(const Stmt& s, int scope) {
        std::vector<const Stmt*> loops = synchronised(scope);
        if (loops.empty()) return nullptr;
        auto [entry, added] = varying_.try_emplace(loops, loops);
        return entry->second.varying_in(*s.condition, s.decl.get());
    }

    // The barrier in `s` that a message names.
    std::string describe_barrier(const Stmt& s) {
        const Stmt* barrier = nullptr;
        const Expr* call = nullptr;
        for_each_stmt(s, [&](const Stmt& inner) {
            if (inner.kind == Stmt::Kind::Barrier && !barrier) barrier = &inner;
            for_each_own_call(inner, [&](const Expr& c) {
                if (!call && scopes_.call_reaches_barrier(c)) call = &c;
            });
        });
        if (barrier) return fmt::format("the barrier({}) on line {}", barrier->name, barrier->location.line);
        if (call) return fmt::format("the barrier in '{}' (called on line {})", call->callee, call->location.line);
        return "a barrier";
    }

    const Function& fn_;
    BarrierScopes& scopes_;
    DiagnosticEngine& diags_;
    std::vector<const Stmt*> enclosing_;  // the foreach loops around the statement visited
    std::vector<const Stmt*> path_;       // every statement around it, outermost first
    std::map<std::vector<const Stmt*>, VaryingVariables> varying_;
};

}  // namespace

void check_barrier_uniformity(const Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags) {
    BarrierScopes scopes([&](const std::string& description) { return library.find(description); });
    for (const auto& m : program.modules)
        for (const auto& f : m->functions)
            if (f->body && !f->builtin_body) UniformityChecker(*f, scopes, diags).run();
}

}  // namespace mcl::mcpl
