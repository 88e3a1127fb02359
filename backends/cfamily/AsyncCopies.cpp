#include "backends/cfamily/AsyncCopies.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::backends {

namespace {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Stmt;

constexpr int64_t kIntSpan = int64_t{1} << 31;

// The indices of an element access, every group's in order.
std::vector<const Expr*> indices_of(const Expr& access) {
    std::vector<const Expr*> out;
    for (const auto& group : access.var.front().indices)
        for (const auto& index : group) out.push_back(index.get());
    return out;
}

// An access of one element through the variable's first form.
bool is_element_of_first_form(const Expr& e) {
    if (e.kind != Expr::Kind::Var || e.var.size() != 1 || !e.decl || e.hardware) return false;
    if (e.form != &e.decl->forms.front() || e.type.is_array()) return false;
    size_t rank = 0;
    for (size_t r : e.decl->forms.front().resolved_type.group_ranks) rank += r;
    return rank > 0 && indices_of(e).size() == rank;
}

bool has_call(const Expr& e) {
    bool found = false;
    mcpl::for_each_call(e, [&](const Expr&) { found = true; });
    return found;
}

// `s` itself, or the one statement of the block `s` is; nullptr for any
// other block.
const Stmt* only_statement(const Stmt* s) {
    if (s && s->kind == Stmt::Kind::Block) return s->body.size() == 1 ? s->body.front().get() : nullptr;
    return s;
}

std::optional<int64_t> constant(const Expr& e) { return mcpl::checked_constant_int_value(e); }

// The same expression, reading the same scalars (no memory).
bool same_structure(const Expr& a, const Expr& b) {
    if (a.kind != b.kind || a.op != b.op || a.args.size() != b.args.size()) return false;
    switch (a.kind) {
    case Expr::Kind::IntLiteral: return a.int_value == b.int_value;
    case Expr::Kind::FloatLiteral: return a.float_value == b.float_value;
    case Expr::Kind::BoolLiteral: return a.bool_value == b.bool_value;
    case Expr::Kind::Var:
        if (a.hardware || b.hardware) return a.hardware && b.hardware && a.hardware->value == b.hardware->value;
        return a.var.size() == 1 && b.var.size() == 1 && a.var[0].indices.empty() && b.var[0].indices.empty() &&
               a.decl && a.decl == b.decl && !a.type.is_array();
    case Expr::Kind::Call:
        if (a.function || a.callee != b.callee) return false;
        break;
    default: break;
    }
    for (size_t i = 0; i < a.args.size(); ++i)
        if (!same_structure(*a.args[i], *b.args[i])) return false;
    return true;
}

// `e` as base + constant (`E + c`, `c + E`, `E - c`), else (e, 0).
std::pair<const Expr*, int64_t> split_offset(const Expr& e) {
    if (e.kind == Expr::Kind::Binary && (e.op == "+" || e.op == "-")) {
        if (auto c = constant(*e.args[1])) return {e.args[0].get(), e.op == "+" ? *c : -*c};
        if (auto c = constant(*e.args[0]); c && e.op == "+") return {e.args[1].get(), *c};
    }
    return {&e, 0};
}

// Whether two index expressions, evaluated with the same values of their
// variables, give different values (see the header).
bool indices_differ(const Expr& a, const Expr& b) {
    auto ca = constant(a), cb = constant(b);
    if (ca && cb) return *ca != *cb;
    if (a.kind == Expr::Kind::Binary && b.kind == Expr::Kind::Binary && a.op == "%" && b.op == "%") {
        auto ma = constant(*a.args[1]), mb = constant(*b.args[1]);
        if (ma && mb && *ma == *mb && *ma > 0) {
            auto [base_a, offset_a] = split_offset(*a.args[0]);
            auto [base_b, offset_b] = split_offset(*b.args[0]);
            return same_structure(*base_a, *base_b) && (offset_a - offset_b) % *ma != 0;
        }
    }
    auto [base_a, offset_a] = split_offset(a);
    auto [base_b, offset_b] = split_offset(b);
    return offset_a != offset_b && same_structure(*base_a, *base_b);
}

// The variables (scalars) a statement itself writes: targets of
// assignments, steps and swaps, what it declares, and arguments of
// parameters a callee writes.
template <typename Visit>
void for_each_own_write(const Stmt& s, Visit&& visit) {
    if (s.kind == Stmt::Kind::Assign || s.kind == Stmt::Kind::Step || s.kind == Stmt::Kind::Swap) visit(s.target->decl);
    if (s.kind == Stmt::Kind::Swap) visit(s.value->decl);
    if (s.kind == Stmt::Kind::Decl || s.kind == Stmt::Kind::For) visit(s.decl.get());
    mcpl::for_each_own_call(s, [&](const Expr& call) {
        if (!call.function) return;
        for (size_t i = 0; i < call.args.size() && i < call.function->params.size(); ++i)
            if (call.function->params[i]->is_written && call.args[i]->kind == Expr::Kind::Var) visit(call.args[i]->decl);
    });
}

class AsyncCopyPlanner {
public:
    AsyncCopyPlanner(const mcpl::Function& kernel, const GridLaunch& launch, const BackendConfig& config)
        : kernel_(kernel), launch_(launch), config_(config) {}

    AsyncCopyPlan run() {
        find_innermost_item_loops(*launch_.root);
        for (const Stmt* loop : innermost_) find_copies(*loop->loop_body);
        // Demoting a copy changes what may be pending: analyse again.
        for (bool again = true; again && !plan_.copies.empty();) {
            plan_.waits_before.clear();
            plan_.waits_after.clear();
            demoted_.clear();
            overlapping_.clear();
            for (const Stmt* loop : innermost_) {
                State state;
                flow(*loop->loop_body, state);
                if (!state.empty()) plan_.waits_after.insert(loop);
                note_overlaps(state);
            }
            // A copy that waits for the item's earlier copies first, or
            // whose wait comes before any other access of memory, overlaps
            // nothing that plain loads, several in flight, do not.
            for (const auto& [copy, c] : plan_.copies)
                if (plan_.waits_before.count(copy) || !overlapping_.count(copy)) demoted_.insert(copy);
            for (const Stmt* copy : demoted_) plan_.copies.erase(copy);
            again = !demoted_.empty();
        }
        if (plan_.copies.empty()) plan_ = {};
        return plan_;
    }

private:
    // A copy statement whose copies may be pending: per index of its
    // target, whether no variable of that index was written since (its
    // value then still says which element), and whether a later execution
    // of the statement itself targets another element (every loop back edge
    // since was one of a loop it targets distinct elements over).
    // `overlapped`: the item accessed memory (other than by copying) while
    // the copy was pending, on some path.
    struct Pending {
        bool repeat_distinct = true;
        std::vector<bool> index_stable;
        bool overlapped = false;
        bool operator==(const Pending& o) const {
            return repeat_distinct == o.repeat_distinct && index_stable == o.index_stable &&
                   overlapped == o.overlapped;
        }
    };
    using State = std::map<const Stmt*, Pending>;

    void find_innermost_item_loops(const Stmt& s) {
        if (is_item_loop(launch_, s)) {
            bool nested = false;
            mcpl::for_each_stmt(*s.loop_body, [&](const Stmt& c) { nested = nested || is_item_loop(launch_, c); });
            if (!nested) {
                innermost_.push_back(&s);
                return;
            }
        }
        mcpl::for_each_child_stmt(s, [&](const Stmt& c) { find_innermost_item_loops(c); });
    }

    // --- recognising copies ---------------------------------------------------

    bool is_shared_array(const Decl* d) const {
        return std::find(launch_.group_arrays.begin(), launch_.group_arrays.end(), d) != launch_.group_arrays.end();
    }

    bool is_read_only_device_parameter(const Decl* d) const {
        bool parameter = std::any_of(kernel_.params.begin(), kernel_.params.end(),
                                     [&](const std::unique_ptr<Decl>& p) { return p.get() == d; });
        return parameter && !d->is_written && memory_scope(config_, d->memory_space) == "device";
    }

    static bool copyable_element(const mcpl::Type& t) {
        if (!t.primitive || t.is_array()) return false;
        return *t.primitive == mcpl::Primitive::Int || *t.primitive == mcpl::Primitive::Float ||
               *t.primitive == mcpl::Primitive::Double;
    }

    std::optional<AsyncCopy> copy_assignment(const Stmt* s) const {
        if (!s || s->kind != Stmt::Kind::Assign || s->op != "=") return std::nullopt;
        const Expr& target = *s->target;
        const Expr& source = *s->value;
        if (!is_element_of_first_form(target) || !is_shared_array(target.decl)) return std::nullopt;
        if (!is_element_of_first_form(source) || !is_read_only_device_parameter(source.decl)) return std::nullopt;
        if (!copyable_element(target.type) || !(target.type == source.type)) return std::nullopt;
        if (has_call(target) || has_call(source)) return std::nullopt;
        return AsyncCopy{&target, &source, nullptr};
    }

    static bool is_zero(const Expr& e) {
        return (e.kind == Expr::Kind::IntLiteral && e.int_value == 0) ||
               (e.kind == Expr::Kind::FloatLiteral && e.float_value == 0.0);
    }

    std::optional<AsyncCopy> zero_filling_copy(const Stmt& s) const {
        if (s.kind != Stmt::Kind::If || !s.else_branch || has_call(*s.condition)) return std::nullopt;
        auto copy = copy_assignment(only_statement(s.then_branch.get()));
        const Stmt* zero = only_statement(s.else_branch.get());
        if (!copy || !zero || zero->kind != Stmt::Kind::Assign || zero->op != "=" || !is_zero(*zero->value))
            return std::nullopt;
        const Expr& other = *zero->target;
        if (!is_element_of_first_form(other) || other.decl != copy->target->decl) return std::nullopt;
        auto a = indices_of(*copy->target), b = indices_of(other);
        for (size_t i = 0; i < a.size(); ++i)
            if (!same_structure(*a[i], *b[i])) return std::nullopt;
        copy->condition = s.condition.get();
        return copy;
    }

    void find_copies(const Stmt& s) {
        if (auto copy = s.kind == Stmt::Kind::If ? zero_filling_copy(s) : copy_assignment(&s)) {
            plan_.copies.emplace(&s, *copy);
            return;
        }
        mcpl::for_each_child_stmt(s, [&](const Stmt& c) { find_copies(c); });
    }

    const Decl* target_of(const Stmt* copy) const { return plan_.copies.at(copy).target->decl; }

    // --- distinct elements over the iterations of a loop ------------------------

    struct LoopFacts {
        std::set<const Decl*> declared;  // in the body
        std::set<const Decl*> written;   // in the body or step, declarations included
        std::set<const Stmt*> statements;
    };

    const LoopFacts& facts(const Stmt& loop) {
        auto [it, inserted] = loop_facts_.try_emplace(&loop);
        if (!inserted) return it->second;
        LoopFacts& f = it->second;
        for (const Stmt* part : {loop.loop_body.get(), loop.step.get()}) {
            if (!part) continue;
            mcpl::for_each_stmt(*part, [&](const Stmt& s) {
                f.statements.insert(&s);
                if ((s.kind == Stmt::Kind::Decl || s.kind == Stmt::Kind::For) && part == loop.loop_body.get())
                    f.declared.insert(s.decl.get());
                for_each_own_write(s, [&](const Decl* d) { f.written.insert(d); });
            });
        }
        return f;
    }

    // The coefficient of `loop`'s counter in `e` when `e` is that times the
    // counter plus a value the loop does not change; nullopt when unknown.
    std::optional<int64_t> coefficient(const Expr& e, const Stmt& loop, int depth = 0) {
        if (depth > 64) return std::nullopt;
        if (constant(e)) return 0;
        auto bounded = [](int64_t c) -> std::optional<int64_t> {
            if (c <= -kIntSpan || c >= kIntSpan) return std::nullopt;
            return c;
        };
        switch (e.kind) {
        case Expr::Kind::IntLiteral:
        case Expr::Kind::FloatLiteral:
        case Expr::Kind::BoolLiteral: return 0;
        case Expr::Kind::Var: {
            if (e.hardware) return 0;
            if (e.var.size() != 1 || !e.var[0].indices.empty() || !e.decl || e.type.is_array()) return std::nullopt;
            if (e.decl == loop.decl.get()) return 1;
            const LoopFacts& f = facts(loop);
            if (f.declared.count(e.decl)) {
                // Declared in each iteration and never assigned: its initialiser's value.
                if (e.decl->is_written || !e.decl->init) return std::nullopt;
                return coefficient(*e.decl->init, loop, depth + 1);
            }
            if (f.written.count(e.decl)) return std::nullopt;
            return 0;
        }
        case Expr::Kind::Call: {
            if (e.function) return std::nullopt;
            for (const auto& arg : e.args) {
                auto c = coefficient(*arg, loop, depth + 1);
                if (!c || *c != 0) return std::nullopt;
            }
            return 0;
        }
        case Expr::Kind::Unary: {
            auto c = coefficient(*e.args[0], loop, depth + 1);
            if (!c) return std::nullopt;
            if (e.op == "-") return -*c;
            return *c == 0 ? std::optional<int64_t>(0) : std::nullopt;
        }
        case Expr::Kind::Binary: {
            auto ca = coefficient(*e.args[0], loop, depth + 1), cb = coefficient(*e.args[1], loop, depth + 1);
            if (!ca || !cb) return std::nullopt;
            if (e.op == "+") return bounded(*ca + *cb);
            if (e.op == "-") return bounded(*ca - *cb);
            if (*ca == 0 && *cb == 0) return 0;
            if (e.op == "*") {
                if (auto k = constant(*e.args[0])) return bounded(*k * *cb);
                if (auto k = constant(*e.args[1])) return bounded(*ca * *k);
            }
            return std::nullopt;
        }
        }
        return std::nullopt;
    }

    // Whether copy statement `copy` targets a different element in every
    // iteration of `loop` (see the header).
    bool distinct_over(const Stmt* copy, const Stmt& loop) {
        auto key = std::make_pair(copy, &loop);
        if (auto it = distinct_.find(key); it != distinct_.end()) return it->second;
        bool distinct = false;
        auto iterations = loop.kind == Stmt::Kind::For ? mcpl::constant_loop(loop) : std::nullopt;
        if (iterations && iterations->stride != 0) {
            // The counter's largest change between two iterations; below 2^62.
            int64_t span = std::abs(iterations->stride) * std::max<int64_t>(iterations->trips - 1, 0);
            auto moves = [&](const Expr& e) {
                auto c = coefficient(e, loop);
                return c && *c != 0 && (span == 0 || std::abs(*c) <= (kIntSpan - 1) / span);
            };
            auto indices = indices_of(*plan_.copies.at(copy).target);
            for (const Expr* i : indices) distinct = distinct || moves(*i);
            for (const Expr* quotient : indices)
                for (const Expr* remainder : indices) {
                    if (distinct || quotient->kind != Expr::Kind::Binary || remainder->kind != Expr::Kind::Binary ||
                        quotient->op != "/" || remainder->op != "%")
                        continue;
                    auto k = constant(*quotient->args[1]), k2 = constant(*remainder->args[1]);
                    distinct = k && k2 && *k == *k2 && *k > 0 &&
                               same_structure(*quotient->args[0], *remainder->args[0]) && moves(*quotient->args[0]);
                }
        }
        distinct_[key] = distinct;
        return distinct;
    }

    // --- the analysis -----------------------------------------------------------

    void wait_before(const Stmt& s, State& state) {
        plan_.waits_before.insert(&s);
        note_overlaps(state);
        state.clear();
    }

    void note_overlaps(const State& state) {
        for (const auto& [copy, pending] : state)
            if (pending.overlapped) overlapping_.insert(copy);
    }

    // The item works while its copies are pending when `s` itself reads or
    // writes an array element.
    static void note_work(const Stmt& s, State& state) {
        bool accesses = false;
        mcpl::for_each_own_expr(s, [&](const Expr& e) {
            mcpl::for_each_expr(e, [&](const Expr& sub) {
                if (sub.kind == Expr::Kind::Var && !sub.hardware)
                    for (const mcpl::VarPart& part : sub.var) accesses = accesses || !part.indices.empty();
            });
        });
        if (accesses)
            for (auto& entry : state) entry.second.overlapped = true;
    }

    // Whether the element `access` names differs from the one pending
    // `copy` targets.
    bool differs_from(const Expr& access, const Stmt* copy, const Pending& pending) const {
        if (!is_element_of_first_form(access)) return false;
        auto mine = indices_of(access), theirs = indices_of(*plan_.copies.at(copy).target);
        for (size_t i = 0; i < mine.size() && i < theirs.size(); ++i)
            if (pending.index_stable[i] && indices_differ(*mine[i], *theirs[i])) return true;
        return false;
    }

    // Whether evaluating `e` must wait: it calls a user function while a
    // copy is pending, or touches an array a pending copy targets, other
    // than in a provably different element.
    bool must_wait(const Expr& e, const State& state) const {
        if (state.empty()) return false;
        bool wait = false;
        mcpl::for_each_expr(e, [&](const Expr& sub) {
            if (sub.kind == Expr::Kind::Call && sub.function) wait = true;
            if (wait || sub.kind != Expr::Kind::Var || !sub.decl) return;
            for (const auto& [copy, pending] : state)
                if (target_of(copy) == sub.decl && !differs_from(sub, copy, pending)) wait = true;
        });
        return wait;
    }

    bool own_exprs_must_wait(const Stmt& s, const State& state) const {
        bool wait = false;
        mcpl::for_each_own_expr(s, [&](const Expr& e) { wait = wait || must_wait(e, state); });
        return wait;
    }

    void note_writes(const Stmt& s, State& state) {
        for_each_own_write(s, [&](const Decl* written) {
            if (!written) return;
            for (auto& copy_and_pending : state) {
                // Not a structured binding: the lambda below captures it, which
                // clang before 16 does not allow for bindings (the fuzz build).
                auto& pending = copy_and_pending.second;
                auto indices = indices_of(*plan_.copies.at(copy_and_pending.first).target);
                for (size_t i = 0; i < indices.size(); ++i)
                    mcpl::for_each_expr(*indices[i], [&](const Expr& sub) {
                        if (sub.decl == written) pending.index_stable[i] = false;
                    });
            }
        });
    }

    static State merged(const State& a, const State& b) {
        State out = a;
        for (const auto& [copy, pending] : b) {
            auto [it, inserted] = out.emplace(copy, pending);
            if (inserted) continue;
            it->second.repeat_distinct = it->second.repeat_distinct && pending.repeat_distinct;
            it->second.overlapped = it->second.overlapped || pending.overlapped;
            for (size_t i = 0; i < pending.index_stable.size(); ++i)
                it->second.index_stable[i] = it->second.index_stable[i] && pending.index_stable[i];
        }
        return out;
    }

    void copy(const Stmt& s, State& state) {
        const AsyncCopy& c = plan_.copies.at(&s);
        bool wait = must_wait(*c.source, state) || (c.condition && must_wait(*c.condition, state));
        for (const Expr* index : indices_of(*c.target)) wait = wait || must_wait(*index, state);
        for (const auto& [other, pending] : state) {
            if (target_of(other) != c.target->decl) continue;
            if (other == &s ? !pending.repeat_distinct : !differs_from(*c.target, other, pending)) wait = true;
        }
        if (wait) wait_before(s, state);
        state.try_emplace(&s, Pending{true, std::vector<bool>(indices_of(*c.target).size(), true), false});
    }

    // A back edge of `loop`: the copies made in it may be pending when they
    // are made again.
    void cross_back_edge(const Stmt& loop, State& state) {
        const LoopFacts& f = facts(loop);
        for (auto& [copy, pending] : state)
            if (f.statements.count(copy)) pending.repeat_distinct = pending.repeat_distinct && distinct_over(copy, loop);
    }

    // No statement comes before a loop's later condition tests or its step:
    // the copies in it into what they touch are made synchronously.
    void demote_copies_touched_by(const Stmt& loop, const Expr& header) {
        std::set<const Decl*> touched;
        mcpl::for_each_expr(header, [&](const Expr& sub) { touched.insert(sub.decl); });
        const LoopFacts& f = facts(loop);
        for (const auto& [copy, c] : plan_.copies)
            if (f.statements.count(copy) && touched.count(c.target->decl)) demoted_.insert(copy);
    }

    void flow_loop(const Stmt& loop, State& state) {
        State head = state;
        for (;;) {
            State iteration = head;
            flow(*loop.loop_body, iteration);
            if (loop.step) {
                mcpl::for_each_own_expr(*loop.step, [&](const Expr& e) {
                    if (must_wait(e, iteration)) demote_copies_touched_by(loop, e);
                });
                note_writes(*loop.step, iteration);
            }
            cross_back_edge(loop, iteration);
            if (loop.condition && must_wait(*loop.condition, iteration)) demote_copies_touched_by(loop, *loop.condition);
            State next = merged(state, iteration);
            if (next == head) break;
            head = std::move(next);
        }
        state = std::move(head);
    }

    void flow(const Stmt& s, State& state) {
        // A wait placed in an earlier round of a loop's fixed point holds.
        if (plan_.waits_before.count(&s)) state.clear();
        if (plan_.copies.count(&s)) {
            copy(s, state);
            return;
        }
        switch (s.kind) {
        case Stmt::Kind::Block:
            for (const auto& c : s.body) flow(*c, state);
            return;
        case Stmt::Kind::If: {
            if (must_wait(*s.condition, state)) wait_before(s, state);
            note_work(s, state);
            State other = state;
            flow(*s.then_branch, state);
            if (s.else_branch) flow(*s.else_branch, other);
            state = merged(state, other);
            return;
        }
        case Stmt::Kind::For:
            if ((s.decl->init && must_wait(*s.decl->init, state)) || must_wait(*s.condition, state))
                wait_before(s, state);
            note_work(s, state);
            note_writes(s, state);
            flow_loop(s, state);
            return;
        case Stmt::Kind::Foreach:
            if (!state.empty()) wait_before(s, state);
            flow_loop(s, state);
            return;
        case Stmt::Kind::Barrier:
        case Stmt::Kind::Return:
            if (!state.empty()) wait_before(s, state);
            return;
        default:
            if (own_exprs_must_wait(s, state)) wait_before(s, state);
            note_work(s, state);
            note_writes(s, state);
            return;
        }
    }

    const mcpl::Function& kernel_;
    const GridLaunch& launch_;
    const BackendConfig& config_;
    std::vector<const Stmt*> innermost_;
    std::map<const Stmt*, LoopFacts> loop_facts_;
    std::map<std::pair<const Stmt*, const Stmt*>, bool> distinct_;
    AsyncCopyPlan plan_;
    std::set<const Stmt*> demoted_;      // copies to make synchronously in the next analysis
    std::set<const Stmt*> overlapping_;  // copies pending at some access of memory
};

}  // namespace

std::set<const Stmt*> copied_assignments(const AsyncCopyPlan& plan) {
    std::set<const Stmt*> out;
    for (const auto& [s, copy] : plan.copies) {
        if (!copy.condition) {
            out.insert(s);
            continue;
        }
        out.insert(only_statement(s->then_branch.get()));
        out.insert(only_statement(s->else_branch.get()));
    }
    return out;
}

AsyncCopyPlan plan_async_copies(const mcpl::Function& kernel, const GridLaunch& launch, const BackendConfig& config) {
    return AsyncCopyPlan(AsyncCopyPlanner(kernel, launch, config).run());
}

}  // namespace mcl::backends
