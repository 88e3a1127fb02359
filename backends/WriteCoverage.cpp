#include "backends/WriteCoverage.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::backends {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Stmt;

namespace {

// A loop around the statement visited: index = first + stride * k for the
// ordinals k in [0, trips). A foreach has first 0 and stride 1, and its
// count as written; a for loop is one whose iterations are constant.
struct Loop {
    const Decl* index = nullptr;
    int64_t first = 0;
    int64_t stride = 1;
    std::optional<int64_t> trips;  // when constant
    const Expr* count = nullptr;   // foreach: the count as written
};

// An int expression as offset + sum of coefficient * ordinal of a loop.
struct Affine {
    std::map<const Loop*, int64_t> terms;
    int64_t offset = 0;

    bool operator==(const Affine& other) const { return terms == other.terms && offset == other.offset; }
};

std::optional<Affine> scaled(Affine a, int64_t factor) {
    if (__builtin_mul_overflow(a.offset, factor, &a.offset)) return std::nullopt;
    for (auto& [loop, coefficient] : a.terms)
        if (__builtin_mul_overflow(coefficient, factor, &coefficient)) return std::nullopt;
    std::erase_if(a.terms, [](const auto& term) { return term.second == 0; });
    return a;
}

std::optional<Affine> sum(Affine a, const Affine& b) {
    if (__builtin_add_overflow(a.offset, b.offset, &a.offset)) return std::nullopt;
    for (const auto& [loop, coefficient] : b.terms)
        if (__builtin_add_overflow(a.terms[loop], coefficient, &a.terms[loop])) return std::nullopt;
    std::erase_if(a.terms, [](const auto& term) { return term.second == 0; });
    return a;
}

// A scalar that nothing writes after its declaration: it keeps the value of
// its initialiser, evaluated where it was declared (the loop indices in
// scope there have the same values wherever the name is in scope).
const Expr* unwritten_definition(const Expr& e) {
    return mcpl::names_unwritten_scalar(e) ? e.decl->init.get() : nullptr;
}

// `e` with the definitions of unwritten scalars followed (nrBlocks of
// `const int nrBlocks = divide_up(n, chunk)` is the call).
const Expr& definition(const Expr& e) {
    const Expr* at = &e;
    for (int depth = 0; depth < 16; ++depth) {
        const Expr* next = unwritten_definition(*at);
        if (!next) break;
        at = next;
    }
    return *at;
}

// `row + x / divisor`: the quotient part of a pair of indices
// `[row + x / c, x % c]` into a dimension and the next, of extent c.
struct Quotient {
    Affine row;
    Affine x;
    int64_t divisor = 1;

    bool operator==(const Quotient& other) const {
        return row == other.row && x == other.x && divisor == other.divisor;
    }
};

// One dimension of an assignment's target: its index and its extent (the
// expression written in the parameter's type, or a record field's
// constant). A pair `[row + x / c, x % c]` with the second extent c is one
// dimension of extent times c and index c * row + x (the element's place
// in the pair, row-major), bounded where row is.
struct Dimension {
    Affine index;
    const Expr* extent = nullptr;
    std::optional<int64_t> constant_extent;
    int64_t multiplier = 1;          // c of a pair, else 1
    std::optional<Quotient> paired;  // a pair's first index
};

// What an assignment writes in every unit of the loops around it: a
// parameter's field path and, per dimension, the index as an affine function
// of those loops' ordinals (a constant: one element of the dimension), or
// nothing where a call writes every index. Loops are named by their index
// variables, so that writes in the two branches of an if compare equal only
// over the loops around the if.
struct Write {
    using Index = std::pair<std::map<const Decl*, int64_t>, int64_t>;  // terms, offset
    size_t position = 0;
    std::vector<const Decl*> path;
    std::vector<std::optional<Index>> indices;
    std::vector<std::optional<int64_t>> constant_extents;  // per dimension

    bool operator<(const Write& other) const {
        return std::tie(position, path, indices) < std::tie(other.position, other.path, other.indices);
    }
};

class CoverageFinder {
public:
    // `callers`: the functions whose analysis reached this one through calls
    // (a call back into one of them proves nothing).
    CoverageFinder(const Function& kernel, std::set<const Function*> callers) : callers_(std::move(callers)) {
        for (size_t i = 0; i < kernel.params.size(); ++i) positions_[kernel.params[i].get()] = i;
        callers_.insert(&kernel);
    }

    std::set<size_t> run(const Function& kernel) {
        mcpl::for_each_stmt(*kernel.body, [&](const Stmt& s) {
            if (s.kind == Stmt::Kind::Swap && s.target->type.is_array())
                for (const Expr* side : {s.target.get(), s.value.get()}) swapped_.insert(side->decl);
        });
        if (mcpl::may_return(*kernel.body)) return {};
        mcpl::for_each_stmt(*kernel.body, [&](const Stmt& s) {
            mcpl::for_each_own_write(
                s, [](const Decl& param) { return param.is_written; },
                [&](const Expr& v, const Expr*) { ++writes_[v.decl]; });
        });
        visit(*kernel.body);
        std::set<size_t> found;
        for (const auto& [param, position] : positions_) {
            const mcpl::Type& type = param->forms.front().resolved_type;
            if (type.is_array() && covered(position, type, {})) found.insert(position);
        }
        return found;
    }

private:
    using FieldPath = std::vector<const Decl*>;
    // Per dimension of a written part: a constant index, or every index.
    using Pattern = std::vector<std::optional<int64_t>>;
    struct Pieces {
        std::vector<std::optional<int64_t>> extents;  // constant extents per dimension
        std::set<Pattern> patterns;
    };

    // Only blocks, foreach loops whose units do not return, for loops of
    // constant iterations, the then-branch of an if (its condition is
    // checked against the assignment's indices) and what both branches of
    // an if/else write run for every unit.
    void visit(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Block: {
            // `int i; i = b * 256 + t;`: a scalar declared in this block
            // without a value and written once, by an assignment here, has
            // that value in the rest of the block.
            std::set<const Decl*> declared;
            std::vector<const Decl*> defined;
            for (const auto& child : s.body) {
                if (child->kind == Stmt::Kind::Decl && !child->decl->init &&
                    !child->decl->forms.front().resolved_type.is_array())
                    declared.insert(child->decl.get());
                if (const Decl* d = single_assignment(*child); d && declared.count(d)) {
                    definitions_[d] = child->value.get();
                    defined.push_back(d);
                }
                visit(*child);
            }
            for (const Decl* d : defined) definitions_.erase(d);
            return;
        }
        case Stmt::Kind::Foreach:
            // A unit that may return may skip any of its assignments.
            if (mcpl::may_return(*s.loop_body)) return;
            loops_.push_back(Loop{s.decl.get(), 0, 1, mcpl::checked_constant_int_value(*s.count), s.count.get()});
            visit(*s.loop_body);
            loops_.pop_back();
            return;
        case Stmt::Kind::For:
            if (auto iterations = mcpl::constant_loop(s)) {
                loops_.push_back(Loop{s.decl.get(), iterations->first, iterations->stride, iterations->trips, nullptr});
                visit(*s.loop_body);
                loops_.pop_back();
            }
            return;
        case Stmt::Kind::If:
            conditions_.push_back(s.condition.get());
            visit(*s.then_branch);
            conditions_.pop_back();
            if (s.else_branch) both_branches(s);
            return;
        case Stmt::Kind::Assign: assignment(*s.target); return;
        case Stmt::Kind::Call: call(*s.call); return;
        default: return;
        }
    }

    // One branch of an if/else or the other runs in every unit, whatever
    // its condition: an element that both write for every unit of theirs,
    // with the same indices over the loops around the if, is written.
    void both_branches(const Stmt& s) {
        std::set<Write> branch_writes[2];
        const Stmt* branches[2] = {s.then_branch.get(), s.else_branch.get()};
        for (int b = 0; b < 2; ++b) {
            branch_writes_.emplace_back();
            visit(*branches[b]);
            branch_writes[b] = std::move(branch_writes_.back());
            branch_writes_.pop_back();
        }
        for (const Write& w : branch_writes[0])
            if (branch_writes[1].count(w)) note_write(w);
    }

    // Notes `w` for the if/else around it, if any, else for the kernel.
    void note_write(const Write& w) {
        if (!branch_writes_.empty()) {
            branch_writes_.back().insert(w);
            return;
        }
        Pattern fixed;
        for (const auto& index : w.indices)
            fixed.push_back(index && index->first.empty() ? std::optional<int64_t>(index->second) : std::nullopt);
        Pieces& pieces = written_[{w.position, w.path}];
        pieces.extents = w.constant_extents;
        pieces.patterns.insert(std::move(fixed));
    }

    // A call that runs once per run of the kernel (no loop or if around it)
    // writes every element of an array passed whole to a parameter that the
    // callee writes in every element, when the arguments give the callee
    // the array's extents: each of the callee's extents is a constant equal
    // to the array's, or one of its int parameters whose argument has the
    // array's extent as its value.
    void call(const Expr& c) {
        if (!loops_.empty() || !conditions_.empty() || !c.function || c.function->builtin_body ||
            callers_.count(c.function) || c.args.size() != c.function->params.size())
            return;
        const Function& callee = *c.function;
        for (size_t k : CoverageFinder(callee, callers_).run(callee)) {
            const Expr& arg = *c.args[k];
            if (arg.kind != Expr::Kind::Var || !arg.decl || arg.var.size() != 1 || !arg.var[0].indices.empty())
                continue;
            auto position = positions_.find(arg.decl);
            if (position == positions_.end() || arg.form != &arg.decl->forms.front() || swapped_.count(arg.decl))
                continue;
            std::vector<const Expr*> mine = extents_of(arg.decl->forms.front()),
                                     theirs = extents_of(callee.params[k]->forms.front());
            if (mine.size() != theirs.size()) continue;
            Write w{position->second, {}, {}, {}};
            for (size_t d = 0; d < mine.size() && w.indices.size() == d; ++d) {
                std::optional<int64_t> constant = mcpl::checked_constant_int_value(*mine[d]);
                if (!passes_extent(callee, c, *theirs[d], *mine[d], constant)) break;
                w.indices.emplace_back(std::nullopt);
                w.constant_extents.push_back(constant);
            }
            if (w.indices.size() == mine.size()) note_write(w);
        }
    }

    static std::vector<const Expr*> extents_of(const mcpl::BasicDecl& form) {
        std::vector<const Expr*> extents;
        for (const auto& group : form.type.dimensions)
            for (const auto& e : group) extents.push_back(e.get());
        return extents;
    }

    // Whether the callee's extent `theirs`, given the arguments of `c`, is
    // the caller's extent `mine` (of value `constant` when constant).
    static bool passes_extent(const Function& callee, const Expr& c, const Expr& theirs, const Expr& mine,
                              std::optional<int64_t> constant) {
        if (std::optional<int64_t> value = mcpl::checked_constant_int_value(theirs)) return value == constant;
        if (theirs.kind != Expr::Kind::Var || !mcpl::names_unwritten_scalar(theirs)) return false;
        for (size_t q = 0; q < callee.params.size(); ++q)
            if (callee.params[q].get() == theirs.decl) return mcpl::same_int_value(*c.args[q], mine);
        return false;
    }

    // The scalar that `s` assigns with `=`, when that is its only write.
    const Decl* single_assignment(const Stmt& s) const {
        if (s.kind != Stmt::Kind::Assign || s.op != "=" || s.target->var.size() != 1 ||
            !s.target->var[0].indices.empty() || !s.target->decl)
            return nullptr;
        auto count = writes_.find(s.target->decl);
        return count != writes_.end() && count->second == 1 ? s.target->decl : nullptr;
    }

    // The value a scalar named by `e` holds here: its single assignment in
    // a block around, or the initialiser of a scalar nothing writes.
    const Expr* scalar_value(const Expr& e) const {
        if (auto defined = definitions_.find(e.decl); defined != definitions_.end()) return defined->second;
        return unwritten_definition(e);
    }

    const Loop* loop_of(const Decl* index) const {
        for (const Loop& loop : loops_)
            if (loop.index == index) return &loop;
        return nullptr;
    }

    // `e` as an affine function of the ordinals of the loops around it:
    // + - unary minus and products with a constant over loop indices,
    // constants and unwritten int scalars.
    std::optional<Affine> affine(const Expr& e, int depth = 0) const {
        if (depth > 32 || e.type.primitive != mcpl::Primitive::Int || e.type.is_array()) return std::nullopt;
        if (auto value = mcpl::checked_constant_int_value(e)) return Affine{{}, *value};
        switch (e.kind) {
        case Expr::Kind::Var: {
            if (e.var.size() != 1 || !e.var[0].indices.empty()) return std::nullopt;
            if (const Loop* loop = loop_of(e.decl)) return Affine{{{loop, loop->stride}}, loop->first};
            const Expr* value = scalar_value(e);
            return value ? affine(*value, depth + 1) : std::nullopt;
        }
        case Expr::Kind::Unary: {
            auto a = e.op == "-" ? affine(*e.args[0], depth + 1) : std::nullopt;
            return a ? scaled(*a, -1) : std::nullopt;
        }
        case Expr::Kind::Binary: {
            auto a = affine(*e.args[0], depth + 1), b = affine(*e.args[1], depth + 1);
            if (!a || !b) return std::nullopt;
            if (e.op == "+") return sum(*a, *b);
            if (e.op == "-") {
                auto negated = scaled(*b, -1);
                return negated ? sum(*a, *negated) : std::nullopt;
            }
            if (e.op == "*" && a->terms.empty()) return scaled(*b, a->offset);
            if (e.op == "*" && b->terms.empty()) return scaled(*a, b->offset);
            return std::nullopt;
        }
        default: return std::nullopt;
        }
    }

    // Whether the loop's iterations times `times` reach the extent (of a
    // pair: extent * its c): equal values at `times` 1, a constant product
    // at least as large, or a count `divide_up(extent, c)` where `times` is
    // c (of a pair: c times its c; or a count `extent * c` at `times` 1).
    static bool reaches(const Loop& loop, int64_t times, const Dimension& d) {
        if (loop.trips && d.constant_extent) {
            int64_t reach = 0, extent = 0;
            return !__builtin_mul_overflow(*loop.trips, times, &reach) &&
                   !__builtin_mul_overflow(*d.constant_extent, d.multiplier, &extent) && reach >= extent;
        }
        if (!loop.count || !d.extent) return false;
        const Expr& count = definition(*loop.count);
        if (times == 1 && d.multiplier > 1 && count.kind == Expr::Kind::Binary && count.op == "*") {
            // `extent * c` units of the pair
            for (int side = 0; side < 2; ++side)
                if (mcpl::same_int_value(*count.args[side], *d.extent) &&
                    mcpl::checked_constant_int_value(*count.args[1 - side]) == d.multiplier)
                    return true;
        }
        // The extent of a pair is extent * c: `times` must hold c.
        if (times % d.multiplier != 0) return false;
        times /= d.multiplier;
        if (times == 1 && mcpl::same_int_value(*loop.count, *d.extent)) return true;
        return count.kind == Expr::Kind::Call && !count.function && count.callee == "divide_up" &&
               count.args.size() == 2 && mcpl::same_int_value(*count.args[0], *d.extent) &&
               mcpl::checked_constant_int_value(*count.args[1]) == times;
    }

    // Whether the index takes every value in [0, extent) as its loops run:
    // the ordinals form a mixed radix number (coefficients 1, N1, N1*N2, ...
    // where N are the constant iterations of the inner loops) whose outermost
    // loop reaches the extent. Marks its loops used; none may be used twice.
    bool covers(const Dimension& d, std::set<const Loop*>& used) const {
        if (d.index.offset != 0 || d.index.terms.empty()) return false;
        std::vector<std::pair<int64_t, const Loop*>> radix;
        for (const auto& [loop, coefficient] : d.index.terms) {
            if (coefficient <= 0 || !used.insert(loop).second) return false;
            radix.emplace_back(coefficient, loop);
        }
        std::sort(radix.begin(), radix.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        int64_t place = 1;
        for (size_t k = 0; k + 1 < radix.size(); ++k) {
            const Loop& loop = *radix[k].second;
            if (radix[k].first != place || !loop.trips || __builtin_mul_overflow(place, *loop.trips, &place))
                return false;
        }
        return radix.back().first == place && reaches(*radix.back().second, place, d);
    }

    static bool same_extent(const Expr& e, const Dimension& d) {
        if (d.constant_extent) return mcpl::checked_constant_int_value(e) == d.constant_extent;
        return d.extent && mcpl::same_int_value(e, *d.extent);
    }

    // Whether a conjunct of a condition around the assignment holds for
    // every unit whose indices are in bounds: `index < extent` of one of
    // the dimensions (of a pair: its first index). The other conjuncts must
    // be satisfied by some iteration of the loops no index uses
    // (free_loops_can_run).
    bool bounds_an_index(const Expr& c, const std::vector<Dimension>& dimensions) const {
        if (c.kind != Expr::Kind::Binary || (c.op != "<" && c.op != ">")) return false;
        const Expr& index = *c.args[c.op == "<" ? 0 : 1];
        const Expr& bound = *c.args[c.op == "<" ? 1 : 0];
        auto a = affine(index);
        auto q = a ? std::nullopt : quotient(index);
        for (const Dimension& d : dimensions) {
            bool same_index = d.paired ? q && *q == *d.paired : a && d.index == *a;
            if (same_index && same_extent(bound, d)) return true;
        }
        return false;
    }

    // `row + x / c` with row and x affine and the constant c > 0, through
    // unwritten scalars.
    std::optional<Quotient> quotient(const Expr& e, int depth = 0) const {
        if (depth > 32 || e.type.primitive != mcpl::Primitive::Int || e.type.is_array()) return std::nullopt;
        switch (e.kind) {
        case Expr::Kind::Var: {
            if (e.var.size() != 1 || !e.var[0].indices.empty()) return std::nullopt;
            const Expr* value = scalar_value(e);
            return value ? quotient(*value, depth + 1) : std::nullopt;
        }
        case Expr::Kind::Binary: {
            if (e.op == "/") {
                auto x = affine(*e.args[0]);
                auto divisor = mcpl::checked_constant_int_value(*e.args[1]);
                if (!x || !divisor || *divisor <= 0) return std::nullopt;
                return Quotient{Affine{}, *x, *divisor};
            }
            if (e.op != "+") return std::nullopt;
            for (int side = 0; side < 2; ++side) {
                auto row = affine(*e.args[side]);
                auto rest = row ? quotient(*e.args[1 - side], depth + 1) : std::nullopt;
                auto total = rest ? sum(rest->row, *row) : std::nullopt;
                if (total) return Quotient{*total, rest->x, rest->divisor};
            }
            return std::nullopt;
        }
        default: return std::nullopt;
        }
    }

    // `[row + x / c, x % c]` into a dimension and the next, of extent c,
    // where x never goes below 0 (its offset is not negative and its loops'
    // ordinals only add), so that c * (x / c) + x % c is x.
    std::optional<Quotient> paired_indices(const Expr& first, const Expr& second,
                                           std::optional<int64_t> second_extent) const {
        const Expr& remainder = definition(second);
        if (!second_extent || remainder.kind != Expr::Kind::Binary || remainder.op != "%" ||
            mcpl::checked_constant_int_value(*remainder.args[1]) != second_extent)
            return std::nullopt;
        auto q = quotient(first);
        auto x = affine(*remainder.args[0]);
        if (!q || !x || !(q->x == *x) || q->divisor != *second_extent || x->offset < 0) return std::nullopt;
        for (const auto& [loop, coefficient] : x->terms)
            if (coefficient < 0) return std::nullopt;
        return q;
    }

    static void conjuncts(const Expr& c, std::vector<const Expr*>& out) {
        if (c.kind == Expr::Kind::Binary && c.op == "&&") {
            conjuncts(*c.args[0], out);
            conjuncts(*c.args[1], out);
        } else {
            out.push_back(&c);
        }
    }

    // Whether the loops no index uses have an iteration in which every
    // remaining conjunct holds: each loop runs at least once, and each
    // conjunct compares one such loop's index with a constant.
    bool free_loops_can_run(const std::set<const Loop*>& used, const std::vector<const Expr*>& rest) const {
        std::map<const Loop*, std::vector<std::pair<const Expr*, Affine>>> constraints;
        for (const Expr* c : rest) {
            if (c->kind != Expr::Kind::Binary || !mcpl::is_comparison(c->op)) return false;
            auto left = affine(*c->args[0]), right = affine(*c->args[1]);
            auto negated = right ? scaled(*right, -1) : std::nullopt;
            auto difference = left && negated ? sum(*left, *negated) : std::nullopt;
            if (!difference || difference->terms.size() != 1 || used.count(difference->terms.begin()->first))
                return false;
            constraints[difference->terms.begin()->first].emplace_back(c, *difference);
        }
        for (const Loop& loop : loops_) {
            if (used.count(&loop)) continue;
            if (!loop.trips || *loop.trips < 1) return false;
            // Each conjunct holds on an interval of iterations (but for
            // `!=`): try the first and last, and those next to where a
            // conjunct changes.
            std::vector<int64_t> candidates{0, *loop.trips - 1};
            for (const auto& [c, difference] : constraints[&loop]) {
                int64_t boundary = -difference.offset / difference.terms.begin()->second;
                for (int64_t k = boundary - 1; k <= boundary + 1; ++k) candidates.push_back(k);
            }
            bool satisfied = std::any_of(candidates.begin(), candidates.end(), [&](int64_t k) {
                if (k < 0 || k >= *loop.trips) return false;
                return std::all_of(constraints[&loop].begin(), constraints[&loop].end(), [&](const auto& constraint) {
                    const auto& [c, difference] = constraint;
                    int64_t value = difference.offset + difference.terms.begin()->second * k;
                    return mcpl::compare(c->op, value, int64_t{0}).value_or(false);
                });
            });
            if (!satisfied) return false;
        }
        return true;
    }

    // Records the part of a parameter that `target` writes for every unit,
    // when its indices cover their extents.
    void assignment(const Expr& target) {
        if (target.kind != Expr::Kind::Var || !target.decl) return;
        auto position = positions_.find(target.decl);
        const Decl& array = *target.decl;
        if (position == positions_.end() || target.form != &array.forms.front() || swapped_.count(&array)) return;
        std::vector<Dimension> dimensions;
        auto add_dimensions = [&](const mcpl::VarPart& part, const std::vector<const Expr*>& extents,
                                  const std::vector<int64_t>& constant_extents) {
            std::vector<const Expr*> indices;
            for (const auto& group : part.indices)
                for (const auto& e : group) indices.push_back(e.get());
            if (indices.size() != std::max(extents.size(), constant_extents.size())) return false;
            auto constant_extent = [&](size_t k) {
                return extents.empty() ? std::optional<int64_t>(constant_extents[k])
                                       : mcpl::checked_constant_int_value(*extents[k]);
            };
            for (size_t k = 0; k < indices.size(); ++k) {
                Dimension d;
                d.extent = extents.empty() ? nullptr : extents[k];
                d.constant_extent = constant_extent(k);
                if (k + 1 < indices.size()) {
                    if (auto pair = paired_indices(*indices[k], *indices[k + 1], constant_extent(k + 1))) {
                        auto scaled_row = scaled(pair->row, pair->divisor);
                        auto index = scaled_row ? sum(*scaled_row, pair->x) : std::nullopt;
                        if (!index) return false;
                        d.index = *index;
                        d.multiplier = pair->divisor;
                        d.paired = *pair;
                        dimensions.push_back(std::move(d));
                        ++k;
                        continue;
                    }
                }
                auto index = affine(*indices[k]);
                if (!index) return false;
                d.index = *index;
                dimensions.push_back(std::move(d));
            }
            return true;
        };
        std::vector<const Expr*> extents = extents_of(array.forms.front());
        if (extents.empty() || !add_dimensions(target.var[0], extents, {})) return;
        FieldPath path;
        const mcpl::RecordType* record = array.forms.front().resolved_type.record;
        for (size_t k = 1; k < target.var.size(); ++k) {
            const Decl* field = record ? record->field(target.var[k].name) : nullptr;
            if (!field) return;
            if (!add_dimensions(target.var[k], {}, mcpl::record_field_extents(field->forms.front()))) return;
            path.push_back(field);
            record = field->forms.front().resolved_type.record;
        }
        // Each dimension's index is a constant within it or covers it.
        std::set<const Loop*> used;
        for (const Dimension& d : dimensions) {
            bool one_element = d.index.terms.empty() && d.constant_extent && d.index.offset >= 0 &&
                               d.index.offset < *d.constant_extent && d.multiplier == 1;
            if (!one_element && !covers(d, used)) return;
        }
        std::vector<const Expr*> all, rest;
        for (const Expr* c : conditions_) conjuncts(*c, all);
        for (const Expr* c : all)
            if (!bounds_an_index(*c, dimensions)) rest.push_back(c);
        if (!free_loops_can_run(used, rest)) return;
        Write w{position->second, path, {}, {}};
        for (const Dimension& d : dimensions) {
            std::map<const Decl*, int64_t> terms;
            for (const auto& [loop, coefficient] : d.index.terms) terms[loop->index] = coefficient;
            w.indices.emplace_back(Write::Index{std::move(terms), d.index.offset});
            w.constant_extents.push_back(d.constant_extent);
            // A pair covers both of its dimensions.
            if (d.paired) {
                w.indices.emplace_back(std::nullopt);
                w.constant_extents.push_back(d.multiplier);
            }
        }
        note_write(w);
    }

    // Whether the fields under `path` of every element of parameter
    // `position` are written: the whole, or each field in turn.
    bool covered(size_t position, const mcpl::Type& type, const FieldPath& path) const {
        auto pieces = written_.find({position, path});
        if (pieces != written_.end()) {
            Pattern whole(pieces->second.extents.size());
            if (spans(pieces->second, whole, 0)) return true;
        }
        if (!type.record) return false;
        for (const auto& field : type.record->fields) {
            FieldPath longer = path;
            longer.push_back(field.get());
            if (!covered(position, field->forms.front().resolved_type, longer)) return false;
        }
        return !type.record->fields.empty();
    }

    // Whether the writes in `pieces` cover every element that `pattern`
    // (per dimension: one index, or all) leaves, dimensions from `from` on
    // still open: a write covers the elements whose fixed indices it
    // shares, and a dimension of constant extent that some write fixes is
    // covered when each of its indices is.
    static bool spans(const Pieces& pieces, Pattern& pattern, size_t from) {
        for (const Pattern& p : pieces.patterns) {
            bool general = true;
            for (size_t k = 0; k < p.size() && general; ++k) general = !p[k] || p[k] == pattern[k];
            if (general) return true;
        }
        for (size_t k = from; k < pattern.size(); ++k) {
            const std::optional<int64_t>& extent = pieces.extents[k];
            bool fixed_somewhere = std::any_of(pieces.patterns.begin(), pieces.patterns.end(),
                                               [&](const Pattern& p) { return p[k].has_value(); });
            if (!fixed_somewhere || !extent || *extent > max_split_extent) continue;
            bool all = true;
            for (int64_t index = 0; index < *extent && all; ++index) {
                pattern[k] = index;
                all = spans(pieces, pattern, k + 1);
            }
            pattern[k] = std::nullopt;
            return all;
        }
        return false;
    }

    // Constant indices of a dimension longer than this are not combined.
    static constexpr int64_t max_split_extent = 64;

    std::set<const Function*> callers_;  // this function and those whose analysis called it
    std::map<const Decl*, size_t> positions_;
    // Arrays a swap redirects: their names may then refer to another's storage.
    std::set<const Decl*> swapped_;
    std::vector<Loop> loops_;              // the loops around the statement visited
    std::vector<const Expr*> conditions_;  // the conditions of the ifs around it
    std::map<const Decl*, int> writes_;    // statements writing each variable
    // Scalars of the blocks around the statement visited that hold the
    // value of their single assignment.
    std::map<const Decl*, const Expr*> definitions_;
    // What the ifs/elses around the statement visited have their branches
    // write, innermost last.
    std::vector<std::set<Write>> branch_writes_;
    // What is written for every unit, by parameter position and field path.
    std::map<std::pair<size_t, FieldPath>, Pieces> written_;
};

}  // namespace

std::set<size_t> WriteCoverage::fully_written_parameters(const Function& kernel) {
    return CoverageFinder(kernel, {}).run(kernel);
}

WriteCoverage WriteCoverage::of(const mcpl::Module& module) {
    WriteCoverage coverage;
    for (const auto& f : module.functions)
        if (!f->builtin_body) coverage.fully_written_[f->name] = fully_written_parameters(*f);
    return coverage;
}

bool WriteCoverage::fully_written(const Function& kernel, size_t position) const {
    auto it = fully_written_.find(kernel.name);
    return it != fully_written_.end() && it->second.count(position);
}

}  // namespace mcl::backends
