#include "feedback/DataReuse.h"

#include "feedback/AccessAddress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "compiler/print/PrintMcpl.h"

namespace mcl::feedback {

namespace {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Stmt;

bool is_array(const Decl& d) { return d.forms.back().resolved_type.is_array(); }

struct LocalInfo {
    const Expr* init = nullptr;
    bool assigned = false;               // written after its declaration
    std::set<const Decl*> deps;          // loop indices it depends on
    std::vector<const Stmt*> enclosing;  // loops around the declaration
};

// Which loop indices each expression depends on, through local scalars.
class Dependencies {
public:
    explicit Dependencies(const mcpl::Function& f) {
        // Later assignments can feed earlier uses (loop-carried): iterate
        // to a fixed point (dependency sets only grow).
        for (int round = 0; round < 8; ++round) {
            changed_ = false;
            statement(*f.body);
            if (!changed_) break;
        }
    }

    std::set<const Decl*> of(const Expr& e) const {
        std::set<const Decl*> out;
        collect(e, out);
        return out;
    }

    const LocalInfo* local(const Decl* d) const {
        auto it = locals_.find(d);
        return it == locals_.end() ? nullptr : &it->second;
    }

    bool is_index(const Decl* d) const { return indices_.count(d) > 0; }

    // True when a `for` loop's start or bound depends on another loop's
    // index (`for (int e = rowptr[r]; ...)`, triangular loops).
    bool has_dependent_bounds(const Decl* index) const {
        auto it = bound_deps_.find(index);
        return it != bound_deps_.end() && !it->second.empty();
    }

private:
    void collect(const Expr& e, std::set<const Decl*>& out) const {
        if (e.kind == Expr::Kind::Var) {
            if (e.decl && indices_.count(e.decl)) {
                out.insert(e.decl);
                if (auto it = bound_deps_.find(e.decl); it != bound_deps_.end())
                    out.insert(it->second.begin(), it->second.end());
            }
            if (const LocalInfo* l = local(e.decl)) out.insert(l->deps.begin(), l->deps.end());
            for (const auto& part : e.var)
                for (const auto& group : part.indices)
                    for (const auto& index : group) collect(*index, out);
            return;
        }
        for (const auto& a : e.args) collect(*a, out);
    }

    void add(LocalInfo& info, const std::set<const Decl*>& deps) {
        for (const Decl* d : deps)
            if (info.deps.insert(d).second) changed_ = true;
    }

    // A write of a whole local scalar (`x = ...`, `x += ...`, `x++`).
    void assigned(const Expr& target, const Expr* value) {
        if (!target.decl || (!target.var.empty() && !target.var[0].indices.empty())) return;
        auto it = locals_.find(target.decl);
        if (it == locals_.end()) return;
        LocalInfo& info = it->second;
        info.assigned = true;
        if (value) add(info, of(*value));
        std::set<const Decl*> loop_deps;
        for (const auto& [loop, index] : loops_)
            if (std::find(info.enclosing.begin(), info.enclosing.end(), loop) == info.enclosing.end())
                loop_deps.insert(index);
        add(info, loop_deps);
    }

    void statement(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Block:
            for (const auto& child : s.body) statement(*child);
            return;
        case Stmt::Kind::Decl: {
            LocalInfo& info = locals_[s.decl.get()];
            info.init = s.decl->init.get();
            info.enclosing.clear();
            for (const auto& [loop, index] : loops_) info.enclosing.push_back(loop);
            if (info.init) add(info, of(*info.init));
            return;
        }
        case Stmt::Kind::Assign:
            assigned(*s.target, s.value.get());
            return;
        case Stmt::Kind::Step:
            assigned(*s.target, nullptr);
            return;
        case Stmt::Kind::Swap:
            assigned(*s.target, s.value.get());
            assigned(*s.value, s.target.get());
            return;
        case Stmt::Kind::If:
            statement(*s.then_branch);
            if (s.else_branch) statement(*s.else_branch);
            return;
        case Stmt::Kind::For:
        case Stmt::Kind::Foreach:
            indices_.insert(s.decl.get());
            if (s.kind == Stmt::Kind::For) {
                // The index takes its values from its start and bound.
                std::set<const Decl*> deps;
                if (s.decl->init) deps = of(*s.decl->init);
                for (const Decl* d : of(*s.condition)) deps.insert(d);
                deps.erase(s.decl.get());
                std::set<const Decl*>& known = bound_deps_[s.decl.get()];
                for (const Decl* d : deps)
                    if (known.insert(d).second) changed_ = true;
            }
            loops_.emplace_back(&s, s.decl.get());
            statement(*s.loop_body);
            loops_.pop_back();
            return;
        case Stmt::Kind::Call:
        case Stmt::Kind::Return:
        case Stmt::Kind::Barrier:
        case Stmt::Kind::As:
            return;
        }
    }

    std::map<const Decl*, LocalInfo> locals_;
    std::set<const Decl*> indices_;
    std::map<const Decl*, std::set<const Decl*>> bound_deps_;  // for loops: indices their bounds use
    std::vector<std::pair<const Stmt*, const Decl*>> loops_;
    bool changed_ = false;
};

// Index expressions as GiNaC expressions in the loop indices (one symbol
// per loop index declaration) and the kernel's parameters.
class Affine {
public:
    Affine(const Dependencies& deps, Symbols& symbols) : deps_(deps), symbols_(symbols) {}

    GiNaC::symbol index_symbol(const Decl* index) {
        auto it = index_symbols_.find(index);
        if (it != index_symbols_.end()) return it->second;
        GiNaC::symbol s(index->name());
        index_symbols_.emplace(index, s);
        return s;
    }

    bool has_index(const GiNaC::ex& e) const {
        for (const auto& [d, s] : index_symbols_)
            if (e.has(s)) return true;
        return false;
    }

    std::optional<GiNaC::ex> expression(const Expr& e, int depth = 0) {
        if (depth > 32) return std::nullopt;
        switch (e.kind) {
        case Expr::Kind::IntLiteral:
            return GiNaC::ex(GiNaC::numeric(static_cast<long>(e.int_value)));
        case Expr::Kind::Var: {
            if (e.hardware) return symbols_.expression(e);
            if (e.var.size() != 1 || !e.var[0].indices.empty() || !e.decl || is_array(*e.decl)) return std::nullopt;
            if (deps_.is_index(e.decl)) return GiNaC::ex(index_symbol(e.decl));
            if (const LocalInfo* l = deps_.local(e.decl)) {
                if (l->assigned || !l->init) return std::nullopt;
                return expression(*l->init, depth + 1);
            }
            return symbols_.expression(e);  // a parameter or a module constant
        }
        case Expr::Kind::Unary: {
            if (e.op != "-") return std::nullopt;
            auto a = expression(*e.args[0], depth + 1);
            if (!a) return std::nullopt;
            return GiNaC::ex(-*a);
        }
        case Expr::Kind::Binary: {
            auto a = expression(*e.args[0], depth + 1);
            auto b = expression(*e.args[1], depth + 1);
            if (!a || !b) return std::nullopt;
            if (e.op == "+") return GiNaC::ex(*a + *b);
            if (e.op == "-") return GiNaC::ex(*a - *b);
            if (e.op == "*") return GiNaC::ex(*a * *b);
            if (has_index(*b)) return std::nullopt;
            // Integer division of an index is not affine in it: floor and
            // remainder keep the index out of the affine terms.
            if (e.op == "/") return has_index(*a) ? floor_quotient(*a, *b) : GiNaC::ex(*a / *b);
            if (e.op == "%") return remainder_of(*a, *b);
            return std::nullopt;
        }
        case Expr::Kind::Call:
            if (!deps_.of(e).empty()) return std::nullopt;
            return symbols_.expression(e);
        case Expr::Kind::FloatLiteral:
        case Expr::Kind::BoolLiteral:
            return std::nullopt;
        }
        return std::nullopt;
    }

private:
    const Dependencies& deps_;
    Symbols& symbols_;
    std::map<const Decl*, GiNaC::symbol> index_symbols_;
};

GiNaC::ex magnitude(const GiNaC::ex& e) {
    if (GiNaC::is_a<GiNaC::numeric>(e)) return GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(e));
    return e;  // symbolic coefficients are taken to be positive
}

// The loop terms of `index` over `loops`; nullopt when it is not affine in
// the loop indices.
std::optional<std::vector<LoopTerm>> terms_of(const GiNaC::ex& index, const std::vector<const Loop*>& loops,
                                              Affine& affine) {
    GiNaC::ex e = index.expand();
    std::vector<LoopTerm> terms;
    try {
        GiNaC::ex rest = e;
        for (const Loop* l : loops) {
            GiNaC::symbol s = affine.index_symbol(l->index);
            if (!e.has(s)) continue;
            if (!e.is_polynomial(s) || e.degree(s) != 1) return std::nullopt;
            GiNaC::ex c = e.coeff(s, 1);
            if (affine.has_index(c)) return std::nullopt;
            rest = (rest - c * s).expand();
            if (!c.is_zero()) terms.push_back({l, (c * l->step).normal()});
        }
        if (affine.has_index(rest)) return std::nullopt;  // an index of a loop outside the variable's scope
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return terms;
}

// A count with a fractional number in it (m/1024 from divide_up, p/2
// from a step) was rounded: the real count is up to one more.
bool rounded(const std::optional<GiNaC::ex>& count) {
    if (!count) return false;
    GiNaC::ex e = count->expand();
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::numeric>(*it) && !GiNaC::ex_to<GiNaC::numeric>(*it).is_integer()) return true;
    return false;
}

bool rounded(const std::vector<LoopTerm>& terms) {
    for (const LoopTerm& t : terms)
        if (rounded(t.loop->iterations)) return true;
    return false;
}

std::string format_value(double v, bool fraction) {
    char buf[64];
    if (!fraction && std::fabs(v - std::round(v)) < 1e-9 && std::fabs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

// "m" or "m = 2048". A count is whole: one that comes out fractional was
// rounded (a divide_up taken as exact division: m/1024 blocks of m = 1000
// is 1 block, not 0.98) and is shown rounded up.
std::string describe_count(const NamedQuantity& q) {
    std::string text = Symbols::text(q.expr);
    if (q.value && !GiNaC::is_a<GiNaC::numeric>(q.expr))
        text += " = " + format_value(std::ceil(*q.value - 1e-9), false);
    return text;
}

std::string line_of(const Loop& l) { return std::to_string(l.stmt->location.line); }

}  // namespace

std::optional<ReuseRatio> reuse_ratio(const std::vector<LoopTerm>& terms) {
    if (terms.empty()) return std::nullopt;
    GiNaC::ex accesses = 1, range = 0;
    for (const LoopTerm& t : terms) {
        if (!t.loop->iterations) return std::nullopt;
        accesses *= *t.loop->iterations;
        range += *t.loop->iterations * magnitude(t.coefficient);
    }
    accesses = accesses.normal();
    range = range.normal();
    if (range.is_zero()) return std::nullopt;
    return ReuseRatio{accesses, range, (accesses / range).normal()};
}

bool may_exceed_one(const Symbols& symbols, const ReuseRatio& r) {
    NamedQuantity q = symbols.quantity("reuse", r.ratio);
    if (q.value) return *q.value > 1 + 1e-9;
    // Without values: the sign of accesses - range, its symbols (counts
    // and sizes) taken to be positive. A polynomial whose monomials all have
    // coefficients <= 0 is <= 0; otherwise reuse is possible.
    GiNaC::ex difference = (r.accesses - r.range).expand();
    if (GiNaC::is_a<GiNaC::numeric>(difference)) return GiNaC::ex_to<GiNaC::numeric>(difference).is_positive();
    GiNaC::lst symbols_in;
    GiNaC::exmap ones;
    for (GiNaC::const_preorder_iterator it = difference.preorder_begin(); it != difference.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it)) {
            symbols_in.append(*it);
            ones[*it] = 1;
        }
    if (!difference.is_polynomial(symbols_in)) return true;
    auto coefficient_sign = [&](const GiNaC::ex& monomial) {
        GiNaC::ex c = monomial.subs(ones);
        return GiNaC::is_a<GiNaC::numeric>(c) ? GiNaC::ex_to<GiNaC::numeric>(c).csgn() : 1;
    };
    if (GiNaC::is_a<GiNaC::add>(difference)) {
        for (size_t i = 0; i < difference.nops(); ++i)
            if (coefficient_sign(difference.op(i)) > 0) return true;
        return false;
    }
    return coefficient_sign(difference) > 0;
}

std::vector<ReuseFinding> find_reuse(const FeedbackInput& in) {
    Dependencies deps(in.function);
    Affine affine(deps, in.symbols);
    std::vector<ReuseFinding> out;
    for (const Access& a : in.accesses) {
        if (!a.read || a.indices.empty()) continue;
        // The loops inside the variable's declaration: a local declared in
        // a loop is a fresh variable in each iteration.
        const LocalInfo* declared = deps.local(a.variable);
        std::vector<const Loop*> loops;
        for (const Loop& l : a.loops)
            if (!declared || std::find(declared->enclosing.begin(), declared->enclosing.end(), l.stmt) ==
                                 declared->enclosing.end())
                loops.push_back(&l);
        if (loops.empty()) continue;

        std::set<const Decl*> used;
        for (const Expr* index : a.indices)
            for (const Decl* d : deps.of(*index)) used.insert(d);

        bool independent = false;
        for (const Loop* l : loops) {
            if (used.count(l->index)) continue;
            ReuseFinding f;
            f.kind = ReuseFinding::Kind::Independent;
            f.access = &a;
            f.loop = l;
            f.approximate = a.approximate || !l->iterations || rounded(l->iterations);
            out.push_back(std::move(f));
            independent = true;
        }
        if (independent) continue;

        // Advanced: every loop is used; reuse ratio per dimension. Loops
        // whose bounds move with another index have no fixed count.
        bool dependent_bounds = false;
        for (const Loop* l : loops) dependent_bounds = dependent_bounds || deps.has_dependent_bounds(l->index);
        if (dependent_bounds) continue;
        bool all_affine = true;
        std::vector<std::optional<ReuseRatio>> dimension_ratios;
        std::set<const Loop*> overall_loops;
        for (size_t d = 0; d < a.indices.size(); ++d) {
            std::optional<GiNaC::ex> index = affine.expression(*a.indices[d]);
            std::optional<std::vector<LoopTerm>> terms;
            if (index) terms = terms_of(*index, loops, affine);
            if (!terms) {
                all_affine = false;
                continue;
            }
            for (const LoopTerm& t : *terms) overall_loops.insert(t.loop);
            std::optional<ReuseRatio> r = reuse_ratio(*terms);
            if (!terms->empty() && !r) all_affine = false;
            dimension_ratios.push_back(r);
            if (!r || !may_exceed_one(in.symbols, *r)) continue;
            ReuseFinding f;
            f.kind = ReuseFinding::Kind::Dimension;
            f.access = &a;
            f.dimension = d;
            f.terms = *terms;
            f.ratio = r;
            f.approximate = a.approximate || rounded(*terms);
            out.push_back(std::move(f));
        }
        if (!all_affine || a.indices.size() < 2 || overall_loops.empty()) continue;
        GiNaC::ex accesses = 1, range = 1;
        for (const Loop* l : loops)
            if (overall_loops.count(l)) accesses *= *l->iterations;
        ReuseFinding f;
        for (const auto& r : dimension_ratios)
            if (r) {
                range *= r->range;
                f.ranges.push_back(r->range);
            }
        ReuseRatio overall{accesses.normal(), range.normal(), (accesses / range).normal()};
        if (!may_exceed_one(in.symbols, overall)) continue;
        f.kind = ReuseFinding::Kind::Overall;
        f.access = &a;
        f.ratio = overall;
        f.approximate = a.approximate;
        for (const Loop* l : loops)
            if (overall_loops.count(l) && rounded(l->iterations)) f.approximate = true;
        out.push_back(std::move(f));
    }
    return out;
}

std::string describe_ratio(const NamedQuantity& q) {
    std::string text = Symbols::text(q.expr);
    if (q.value && !GiNaC::is_a<GiNaC::numeric>(q.expr)) text += " = " + format_value(*q.value, true);
    return text;
}

namespace {

// The smallest cache holding `variable`'s memory space when the whole
// variable fits in it (with --param values where its size needs them).
std::optional<std::string> holding_cache(const FeedbackInput& in, const mcpl::Decl& variable,
                                         AddressAnalysis& addresses) {
    std::optional<GiNaC::ex> bytes = addresses.declared_bytes(variable);
    if (!bytes) return std::nullopt;
    std::optional<double> size = in.symbols.quantity("", *bytes).value;
    if (!size) return std::nullopt;
    const hdl::DeviceNode* smallest = nullptr;
    for (const hdl::DeviceNode* c : in.model.nodes_of_kind(hdl::BlockKind::Cache)) {
        if (!c->capacity || c->capacity->unlimited) continue;
        if (std::find(c->spaces.begin(), c->spaces.end(), variable.memory_space) == c->spaces.end()) continue;
        if (!smallest || c->capacity->value < smallest->capacity->value) smallest = c;
    }
    if (!smallest || *size > static_cast<double>(smallest->capacity->value)) return std::nullopt;
    return smallest->name;
}

}  // namespace

std::vector<Remark> data_reuse_pass(const FeedbackInput& in) {
    std::vector<Remark> out;
    AddressAnalysis addresses(in.function, in.symbols);
    for (const ReuseFinding& f : find_reuse(in)) {
        const Access& a = *f.access;
        Remark r;
        r.kind = RemarkKind::DataReuse;
        r.location = a.expr->location;
        r.approximate = f.approximate;
        std::string access = mcpl::print_expr(*a.expr);
        switch (f.kind) {
        case ReuseFinding::Kind::Independent: {
            const Loop& l = *f.loop;
            r.message = access + " does not depend on loop index " + l.index->name() + " (line " + line_of(l) +
                        "): it is read ";
            if (l.iterations) {
                // A triangular loop runs a number of times that depends on
                // an enclosing index: the most it runs.
                bool varies = false;
                NamedQuantity q =
                    in.symbols.quantity("reuse", at_last_iteration(*l.iterations, a.loops, in.symbols, varies));
                r.message += (varies ? "up to " : "") + describe_count(q) + " times for the same element";
                if (varies) r.message += " (" + Symbols::text(*l.iterations) + " times, with the enclosing loop's index)";
                r.quantities.push_back(std::move(q));
            } else {
                r.message += "once per iteration of that loop for the same element (its number of iterations "
                             "is unknown)";
            }
            break;
        }
        case ReuseFinding::Kind::Dimension: {
            NamedQuantity accesses = in.symbols.quantity("accesses", f.ratio->accesses);
            NamedQuantity range = in.symbols.quantity("range", f.ratio->range);
            NamedQuantity reuse = in.symbols.quantity("reuse", f.ratio->ratio);
            r.message = access + " depends on every loop around it, but dimension " +
                        std::to_string(f.dimension + 1) + " (" + mcpl::print_expr(*a.indices[f.dimension]) +
                        ") is accessed " + describe_count(accesses) + " times over an index range of " +
                        describe_count(range) + ": data-reuse ratio " + describe_ratio(reuse);
            r.quantities = {std::move(accesses), std::move(range), std::move(reuse)};
            break;
        }
        case ReuseFinding::Kind::Overall: {
            NamedQuantity accesses = in.symbols.quantity("accesses", f.ratio->accesses);
            NamedQuantity range = in.symbols.quantity("range", f.ratio->range);
            NamedQuantity reuse = in.symbols.quantity("reuse", f.ratio->ratio);
            // The range as the product of the dimensions' ranges: (h+fh)*(w+fw).
            std::string factors;
            for (const GiNaC::ex& e : f.ranges) {
                std::string t = Symbols::text(e);
                if (GiNaC::is_a<GiNaC::add>(e)) t = "(" + t + ")";
                factors += (factors.empty() ? "" : "*") + t;
            }
            std::string ratio = fmt::format("({})/({})", Symbols::text(accesses.expr), factors);
            if (reuse.value) ratio += " = " + format_value(*reuse.value, true);
            std::string elements = factors;
            if (range.value) elements += " = " + format_value(*range.value, false);
            r.message = access + " over all dimensions: " + describe_count(accesses) + " accesses to at most " +
                        elements + " elements: data-reuse ratio " + ratio;
            r.quantities = {std::move(accesses), std::move(range), std::move(reuse)};
            break;
        }
        }
        // Reuse of an array that fits in the smallest cache holding it is
        // what that cache does by itself: little left to gain.
        if (std::optional<std::string> cache = holding_cache(in, *a.variable, addresses)) {
            r.message += "; the whole array fits in " + *cache + ", which keeps it";
            r.impact = 0.02;
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace mcl::feedback
