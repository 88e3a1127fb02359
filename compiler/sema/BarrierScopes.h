// Which units a barrier synchronises (DESIGN.md section 10): the rules the
// interpreter runs lock-step code by, shared with the llvm backend, which
// turns the same units into work-item loops.
//
// Needs: checked functions, and a way to find the description each names.
// Does: numbers a description's par_groups from the outermost (0) and gives
//   each memory space a scope: 0 for a top-level space, k for one declared
//   inside the units of the k-th par_group (1-based). A barrier on a space
//   synchronises the units of every foreach over a par_group at a level at
//   or below its scope, within one instance of that scope. scope(s, fn) is
//   the smallest scope of a barrier that statement `s` of `fn` reaches,
//   through the functions it calls (each once, so recursion ends), cached
//   per statement; kNoBarrier when it reaches none.
// Guarantees: a foreach `f` of `fn` runs its units in lock-step exactly when
//   lockstep(f, fn) holds. An unknown description counts as one without
//   nesting: level 0 and scope 0.
#pragma once

#include <climits>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "compiler/ast/Ast.h"
#include "compiler/ast/AstWalk.h"
#include "hdl/HardwareModel.h"

namespace mcl::mcpl {

class BarrierScopes {
public:
    static constexpr int kNoBarrier = INT_MAX;
    using FindModel = std::function<const hdl::HardwareModel*(const std::string& description)>;

    explicit BarrierScopes(FindModel find_model) : find_model_(std::move(find_model)) {}

    // The position of par_group `name` in `fn`'s description, outermost 0.
    int group_level(const Function& fn, const std::string& name) const;
    // 0 for a top-level memory space, k inside the units of the k-th par_group.
    int space_scope(const Function& fn, const std::string& space) const;
    // The smallest scope of a barrier that `s` reaches, through calls too.
    int scope(const Stmt& s, const Function& fn);
    bool has_barrier(const Stmt& s, const Function& fn) { return scope(s, fn) != kNoBarrier; }
    // `call` is of a user function whose body reaches a barrier.
    bool call_reaches_barrier(const Expr& call) {
        const Function* f = call.function;
        return f && !f->builtin_body && f->body && has_barrier(*f->body, *f);
    }
    // Calls `made(call)` for every call in `e` of a function that reaches a
    // barrier, in evaluation order (a call's arguments before the call), and
    // `skipped(call, op)` instead for those in the right operand of a `&&` or
    // `||` (op), which the units whose left operand decides do not evaluate:
    // how code in lock-step makes such calls for its units together.
    template <typename Made, typename Skipped>
    void for_each_barrier_call(const Expr& e, Made&& made, Skipped&& skipped) {
        if (e.kind == Expr::Kind::Binary && (e.op == "&&" || e.op == "||")) {
            for_each_barrier_call(*e.args[0], made, skipped);
            for_each_call(*e.args[1], [&](const Expr& c) {
                if (call_reaches_barrier(c)) skipped(c, e.op);
            });
            return;
        }
        for (const ExprPtr& arg : e.args) for_each_barrier_call(*arg, made, skipped);
        for (const VarPart& part : e.var)
            for (const auto& group : part.indices)
                for (const ExprPtr& index : group) for_each_barrier_call(*index, made, skipped);
        if (e.kind == Expr::Kind::Call && call_reaches_barrier(e)) made(e);
    }
    // The units of foreach `f` synchronise at a barrier inside it.
    bool lockstep(const Stmt& f, const Function& fn) { return scope(*f.loop_body, fn) <= group_level(fn, f.name); }

private:
    FindModel find_model_;
    std::map<const Stmt*, int> scopes_;
    std::set<const Function*> in_progress_;
};

}  // namespace mcl::mcpl
