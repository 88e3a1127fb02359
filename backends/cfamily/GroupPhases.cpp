#include "backends/cfamily/GroupPhases.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "backends/cfamily/ArraySwaps.h"
#include "compiler/ast/AstWalk.h"
#include "compiler/sema/ResolveNames.h"

namespace mcl::backends {

namespace {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Stmt;

class GroupPhases {
public:
    GroupPhases(GridLaunch& launch, const BackendConfig& config, DiagnosticEngine& diags)
        : launch_(launch), config_(config), diags_(diags) {}

    void run() {
        mark_phases(*launch_.root, false, launch_.root);
        group_reads(*launch_.root, false);
    }

private:
    bool has_nested_item_loop(const Stmt& loop) const {
        bool found = false;
        mcpl::for_each_stmt(*loop.loop_body, [&](const Stmt& c) { found = found || is_item_loop(launch_, c); });
        return found;
    }

    // Code that every item below `owner` runs alike: the code of the group
    // loop or item loop `owner` outside the loops nested in it. `followed`:
    // more of that code runs after `s`.
    void mark_phases(const Stmt& s, bool followed, const Stmt* owner) {
        switch (s.kind) {
        case Stmt::Kind::Foreach:
            if (!is_item_loop(launch_, s)) {
                // a nested group loop: its work-groups each run the code around it
                mark_phases(*s.loop_body, followed, &s);
                return;
            }
            if (followed && !is_item_loop(launch_, *owner)) launch_.barriers_after.insert(&s);
            if (followed && is_item_loop(launch_, *owner))
                diags_.error(s.location,
                             fmt::format("the {} backend cannot make the items under one unit of the foreach "
                                         "over '{}' wait for each other after this foreach over '{}', before the "
                                         "code that follows it; nest that code in this foreach, with a barrier "
                                         "where the items must wait",
                                         config_.backend, owner->name, s.name));
            if (has_nested_item_loop(s)) {
                mark_phases(*s.loop_body, false, &s);
                std::set<const Decl*> read;
                check_item_reads(*s.loop_body, s, read);
            } else {
                check_innermost_writes(*s.loop_body);
            }
            return;
        case Stmt::Kind::Block:
            for (size_t i = 0; i < s.body.size(); ++i)
                mark_phases(*s.body[i], followed || i + 1 < s.body.size(), owner);
            return;
        case Stmt::Kind::If:
            check_redundant_statement(s, owner);
            mark_phases(*s.then_branch, followed, owner);
            if (s.else_branch) mark_phases(*s.else_branch, followed, owner);
            return;
        case Stmt::Kind::For:
            check_redundant_statement(s, owner);
            copied_scalars_[s.decl.get()] = owner;
            mark_phases(*s.step, true, owner);
            mark_phases(*s.loop_body, true, owner);  // the next iteration follows
            return;
        default: check_redundant_statement(s, owner); return;
        }
    }

    // Whether group-level code has read memory since the items last
    // synchronised, given that it had (`pending`) before `s`; marks item
    // loops that must wait for those reads.
    bool group_reads(const Stmt& s, bool pending) {
        switch (s.kind) {
        case Stmt::Kind::Foreach:
            if (is_item_loop(launch_, s)) {
                if (pending) launch_.barriers_before.insert(&s);
                return false;  // a later read follows the barrier after it
            }
            return group_reads(*s.loop_body, pending);
        case Stmt::Kind::Block:
            for (const auto& c : s.body) pending = group_reads(*c, pending);
            return pending;
        case Stmt::Kind::If: {
            pending = pending || reads_memory(*s.condition);
            bool then_pending = group_reads(*s.then_branch, pending);
            return (s.else_branch ? group_reads(*s.else_branch, pending) : pending) || then_pending;
        }
        case Stmt::Kind::For: {
            bool header = (s.decl->init && reads_memory(*s.decl->init)) || reads_memory(*s.condition) ||
                          own_reads(*s.step);
            // Twice: what the end of one iteration read reaches the next.
            bool after = group_reads(*s.loop_body, pending || header);
            return group_reads(*s.loop_body, after || header) || header;
        }
        default: return pending || own_reads(s);
        }
    }

    // In item loop `owner`'s code outside its nested item loops: what that
    // code reads (`read`: the arrays, null for what a call may read) must
    // not be what a nested loop writes, as no barrier can make the nested
    // loop wait until every item has read it.
    void check_item_reads(const Stmt& s, const Stmt& owner, std::set<const Decl*>& read) {
        if (is_item_loop(launch_, s)) {
            std::set<const Decl*> written;
            mcpl::for_each_stmt(*s.loop_body, [&](const Stmt& c) {
                for_each_written(c, [&](const Expr& target) { written.insert(target.decl); });
            });
            for (const Decl* d : written)
                if (d && !copied_scalars_.count(d) && (read.count(d) || read.count(nullptr))) {
                    diags_.error(s.location,
                                 fmt::format("the {} backend cannot make the items under one unit of the foreach "
                                             "over '{}' wait for each other before this foreach over '{}', which "
                                             "writes '{}' that the code before it read; read it inside this foreach",
                                             config_.backend, owner.name, s.name, d->name()));
                    return;
                }
            return;
        }
        mcpl::for_each_own_expr(s, [&](const Expr& e) {
            mcpl::for_each_expr(e, [&](const Expr& sub) {
                if (sub.kind == Expr::Kind::Call && !mcpl::is_pure_call(sub)) read.insert(nullptr);
                if (sub.kind == Expr::Kind::Var && !sub.hardware && sub.decl && !copied_scalars_.count(sub.decl))
                    read.insert(sub.decl);
            });
        });
        mcpl::for_each_child_stmt(s, [&](const Stmt& c) { check_item_reads(c, owner, read); });
    }

    bool own_reads(const Stmt& s) const {
        bool reads = false;
        mcpl::for_each_own_expr(s, [&](const Expr& e) { reads = reads || reads_memory(e); });
        return reads;
    }

    // Reads an array element, passes an array or calls a function that may
    // read memory (what it is given, or a global).
    static bool reads_memory(const Expr& e) {
        bool reads = false;
        mcpl::for_each_expr(e, [&](const Expr& sub) {
            if (sub.kind == Expr::Kind::Call && !mcpl::is_pure_call(sub)) reads = true;
            if (sub.kind != Expr::Kind::Var || sub.hardware) return;
            for (const mcpl::VarPart& part : sub.var) reads = reads || !part.indices.empty();
            reads = reads || sub.type.is_array() || (sub.decl && sub.decl->forms.front().resolved_type.is_array());
        });
        return reads;
    }

    // A statement of code that every item below `owner` runs: the scalars
    // it declares are each item's own copy, and the only memory it may
    // write.
    void check_redundant_statement(const Stmt& s, const Stmt* owner) {
        if (s.kind == Stmt::Kind::Decl) {
            const Decl& d = *s.decl;
            bool scalar = !d.forms.front().resolved_type.is_array();
            if (scalar && memory_scope(config_, d.memory_space) == "group") {
                diags_.error(d.location,
                             fmt::format("the {} backend cannot place the scalar '{}' in memory space '{}', which "
                                         "the items of a work-group share; declare a one-element array instead",
                                         config_.backend, d.name(), d.memory_space));
                return;
            }
            if (scalar) copied_scalars_[&d] = owner;
        }
        // Each item swaps its own pointers to the two arrays (ArraySwaps.h
        // says where that means one swap).
        if (swaps_whole_arrays(s)) return;
        for_each_written(s, [&](const Expr& target) {
            auto it = target.decl ? copied_scalars_.find(target.decl) : copied_scalars_.end();
            if (it != copied_scalars_.end()) {
                if (it->second != owner) report_copied_scalar(target);
                return;
            }
            diags_.error(target.location,
                         fmt::format("the {} backend runs the code outside the innermost foreach loops of a "
                                     "work-group in every item below it, so each item would make this write; make "
                                     "it inside the innermost loop (in one item, under an if on its index) and let "
                                     "a barrier follow where other items read it",
                                     config_.backend));
        });
    }

    // Inside an innermost item loop: writes of scalars that the items share
    // in MCPL.
    void check_innermost_writes(const Stmt& body) {
        mcpl::for_each_stmt(body, [&](const Stmt& s) {
            for_each_written(s, [&](const Expr& target) {
                if (target.decl && copied_scalars_.count(target.decl)) report_copied_scalar(target);
            });
        });
    }

    void report_copied_scalar(const Expr& target) {
        diags_.error(target.location,
                     fmt::format("'{}' is declared outside this loop, so its units share it, but the {} backend "
                                 "gives each item its own copy; declare it inside the loop, or keep the shared value "
                                 "in a one-element array in a memory space the items share",
                                 target.decl->name(), config_.backend));
    }

    // Calls `visit(var)` on each variable `s` itself writes: targets of
    // assignments, steps and swaps, and arguments of parameters that a
    // called function writes.
    template <typename Visit>
    static void for_each_written(const Stmt& s, Visit&& visit) {
        if (s.kind == Stmt::Kind::Assign || s.kind == Stmt::Kind::Step || s.kind == Stmt::Kind::Swap) visit(*s.target);
        if (s.kind == Stmt::Kind::Swap) visit(*s.value);
        mcpl::for_each_own_call(s, [&](const Expr& call) {
            if (!call.function) return;
            for (size_t i = 0; i < call.args.size() && i < call.function->params.size(); ++i)
                if (call.function->params[i]->is_written && call.args[i]->kind == Expr::Kind::Var) visit(*call.args[i]);
        });
    }

    GridLaunch& launch_;
    const BackendConfig& config_;
    DiagnosticEngine& diags_;
    // Scalars declared outside the innermost item loops, each item's own
    // copy, with the loop whose code outside its nested loops declared them.
    std::map<const Decl*, const Stmt*> copied_scalars_;
};

}  // namespace

void plan_group_phases(GridLaunch& launch, const BackendConfig& config, DiagnosticEngine& diags) {
    GroupPhases(launch, config, diags).run();
}

}  // namespace mcl::backends
