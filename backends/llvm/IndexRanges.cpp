#include "backends/llvm/IndexRanges.h"

#include <algorithm>
#include <initializer_list>

#include "compiler/ast/ConstantValue.h"

namespace mcl::backends::llvmir {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Primitive;
using mcpl::Stmt;

namespace {

bool is_int(const Expr& e) { return e.type.primitive == Primitive::Int && !e.type.is_array(); }

// The interval of the values in `candidates`, when all of them are ints.
std::optional<IntRange> hull(std::initializer_list<int64_t> candidates) {
    IntRange r{*std::min_element(candidates.begin(), candidates.end()), *std::max_element(candidates.begin(), candidates.end())};
    if (r.lo < mcpl::kIntMin || r.hi > mcpl::kIntMax) return std::nullopt;
    return r;
}

bool writes(const Expr& e, const Decl* d);

// Whether `s` may change `d`: assigns, steps or swaps it, or passes it
// whole to a call (a callee may write through a parameter).
bool writes(const Stmt& s, const Decl* d) {
    if ((s.kind == Stmt::Kind::Assign || s.kind == Stmt::Kind::Step || s.kind == Stmt::Kind::Swap) && s.target &&
        s.target->decl == d)
        return true;
    if (s.kind == Stmt::Kind::Swap && s.value && s.value->decl == d) return true;
    for (const Expr* e : {s.value.get(), s.call.get(), s.condition.get(), s.count.get()})
        if (e && writes(*e, d)) return true;
    if (s.decl && s.decl->init && writes(*s.decl->init, d)) return true;
    for (const auto& child : s.body)
        if (writes(*child, d)) return true;
    for (const Stmt* child : {s.then_branch.get(), s.else_branch.get(), s.step.get(), s.loop_body.get()})
        if (child && writes(*child, d)) return true;
    return false;
}

bool writes(const Expr& e, const Decl* d) {
    if (e.kind == Expr::Kind::Call && e.function)
        for (const auto& a : e.args)
            if (IndexRanges::plain_variable(*a) == d) return true;
    for (const auto& a : e.args)
        if (writes(*a, d)) return true;
    for (const auto& part : e.var)
        for (const auto& group : part.indices)
            for (const auto& i : group)
                if (writes(*i, d)) return true;
    return false;
}

// `b` as a variable that bounds another's value from above: a plain int
// variable that nothing writes.
const Decl* bounding_variable(const Expr& b) {
    const Decl* d = IndexRanges::plain_variable(b);
    return d && !d->is_written && is_int(b) ? d : nullptr;
}

}  // namespace

const Decl* IndexRanges::plain_variable(const Expr& e) {
    if (e.kind != Expr::Kind::Var || e.var.size() != 1 || !e.var[0].indices.empty()) return nullptr;
    return e.decl;
}

IndexRanges::IndexRanges(const mcpl::Function& function) {
    if (function.body) collect(*function.body);
}

void IndexRanges::collect(const Stmt& s) {
    if ((s.kind == Stmt::Kind::Foreach || s.kind == Stmt::Kind::For) && s.decl) loops_[s.decl.get()] = &s;
    for (const auto& child : s.body) collect(*child);
    for (const Stmt* child : {s.then_branch.get(), s.else_branch.get(), s.loop_body.get()})
        if (child) collect(*child);
}

std::optional<IntRange> IndexRanges::loop_index_range(const Stmt& loop) const {
    if (loop.kind == Stmt::Kind::Foreach) {
        if (!loop.count) return std::nullopt;
        // a count is an int: at most int's largest value
        int64_t most = range(*loop.count).value_or(IntRange{0, mcpl::kIntMax}).hi;
        if (most < 1) return std::nullopt;
        return IntRange{0, most - 1, bounding_variable(*loop.count)};
    }
    // for (int k = a; k < b; k++), k written by nothing but the step
    const Decl* k = loop.decl.get();
    if (!k->init || !loop.condition || !loop.step || !loop.loop_body) return std::nullopt;
    const Expr& condition = *loop.condition;
    if (condition.kind != Expr::Kind::Binary || (condition.op != "<" && condition.op != "<=") ||
        plain_variable(*condition.args[0]) != k)
        return std::nullopt;
    const Stmt& step = *loop.step;
    if (!step.target || step.target->decl != k) return std::nullopt;
    int64_t stride = loop_stride(loop);
    if (stride <= 0 || writes(*loop.loop_body, k) || writes(condition, k)) return std::nullopt;
    if (!is_int(*k->init) || !is_int(*condition.args[1])) return std::nullopt;
    IntRange whole{mcpl::kIntMin, mcpl::kIntMax};
    int64_t first = range(*k->init).value_or(whole).lo;
    int64_t bound = range(*condition.args[1]).value_or(whole).hi;
    int64_t last = condition.op == "<" ? bound - 1 : bound;
    if (last < first) return std::nullopt;  // the body never runs
    // a step past int's largest value would wrap and keep the loop going
    if (last + stride > mcpl::kIntMax) return std::nullopt;
    return IntRange{first, last, condition.op == "<" ? bounding_variable(*condition.args[1]) : nullptr};
}

int64_t IndexRanges::loop_stride(const Stmt& loop) {
    const Stmt& step = *loop.step;
    if (step.kind == Stmt::Kind::Step) return step.op == "++" ? 1 : 0;
    if (step.kind == Stmt::Kind::Assign && step.op == "+=" && step.value)
        return mcpl::checked_constant_int_value(*step.value).value_or(0);
    return 0;
}

const Stmt* IndexRanges::loop_of(const Decl* d) const {
    auto loop = loops_.find(d);
    if (loop == loops_.end() || !loop_index_range(*loop->second)) return nullptr;
    return loop->second;
}

std::optional<IntRange> IndexRanges::variable(const Decl* d) const {
    if (!d) return std::nullopt;
    if (auto known = variables_.find(d); known != variables_.end()) return known->second;
    variables_[d] = std::nullopt;
    std::optional<IntRange> r;
    if (auto loop = loops_.find(d); loop != loops_.end())
        r = loop_index_range(*loop->second);
    else if (d->init && !d->is_written)
        r = range(*d->init);
    variables_[d] = r;
    return r;
}

std::optional<IntRange> IndexRanges::operand(const Expr& e) const {
    if (!is_int(e)) return std::nullopt;
    return range(e).value_or(IntRange{mcpl::kIntMin, mcpl::kIntMax});
}

std::vector<std::pair<const Decl*, const Decl*>> IndexRanges::facts_below(const Expr& condition) {
    if (condition.kind != Expr::Kind::Binary) return {};
    if (condition.op == "&&") {
        auto facts = facts_below(*condition.args[0]);
        auto more = facts_below(*condition.args[1]);
        facts.insert(facts.end(), more.begin(), more.end());
        return facts;
    }
    if (condition.op != "<" && condition.op != ">") return {};
    const Expr& smaller = *condition.args[condition.op == "<" ? 0 : 1];
    const Expr& larger = *condition.args[condition.op == "<" ? 1 : 0];
    const Decl* x = bounding_variable(smaller);
    const Decl* d = bounding_variable(larger);
    if (!x || !d) return {};
    return {{x, d}};
}

std::optional<IntRange> IndexRanges::range(const Expr& e) const {
    if (!is_int(e)) return std::nullopt;
    if (std::optional<int64_t> c = mcpl::checked_constant_int_value(e)) return IntRange{*c, *c};
    switch (e.kind) {
    case Expr::Kind::Var: return variable(plain_variable(e));
    case Expr::Kind::Unary: {
        std::optional<IntRange> a = e.op == "-" ? range(*e.args[0]) : std::nullopt;
        if (!a) return std::nullopt;
        return hull({-a->lo, -a->hi});
    }
    case Expr::Kind::Binary: {
        std::optional<IntRange> a = operand(*e.args[0]);
        std::optional<IntRange> b = a ? operand(*e.args[1]) : std::nullopt;
        if (!b) return std::nullopt;
        if (e.op == "+") {
            std::optional<IntRange> r = hull({a->lo + b->lo, a->hi + b->hi});
            // i + c with c <= 0 stays below what i stays below
            if (r && a->below && b->hi <= 0) r->below = a->below;
            return r;
        }
        if (e.op == "-") {
            std::optional<IntRange> r = hull({a->lo - b->hi, a->hi - b->lo});
            if (r && a->below && b->lo >= 0) r->below = a->below;
            return r;
        }
        if (e.op == "*") return hull({a->lo * b->lo, a->lo * b->hi, a->hi * b->lo, a->hi * b->hi});
        if (b->lo <= 0 && b->hi >= 0) return std::nullopt;  // may divide by zero
        if (e.op == "/") return hull({a->lo / b->lo, a->lo / b->hi, a->hi / b->lo, a->hi / b->hi});
        if (e.op == "%") {
            // C's remainder: the dividend's sign, smaller in magnitude than the divisor
            int64_t largest = std::max(std::abs(b->lo), std::abs(b->hi)) - 1;
            return IntRange{a->lo >= 0 ? 0 : std::max(a->lo, -largest), a->hi <= 0 ? 0 : std::min(a->hi, largest)};
        }
        return std::nullopt;
    }
    case Expr::Kind::Call: {
        if (e.function || (e.callee != "min" && e.callee != "max" && e.callee != "divide_up") || e.args.size() != 2)
            return std::nullopt;
        std::optional<IntRange> a = operand(*e.args[0]);
        std::optional<IntRange> b = a ? operand(*e.args[1]) : std::nullopt;
        if (!b) return std::nullopt;
        if (e.callee == "divide_up") {
            // a / b rounded up for a > 0 (truncated otherwise), monotone in
            // both for b > 0; b <= 0 faults
            if (b->lo <= 0) return std::nullopt;
            auto up = [](int64_t x, int64_t y) { return x / y + (x % y != 0 && x > 0 ? 1 : 0); };
            return hull({up(a->lo, b->lo), up(a->lo, b->hi), up(a->hi, b->lo), up(a->hi, b->hi)});
        }
        if (e.callee == "min") return IntRange{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
        return IntRange{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
    }
    default: return std::nullopt;
    }
}

}  // namespace mcl::backends::llvmir
