#include "backends/llvm/LinearBounds.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

#include "compiler/ast/ConstantValue.h"

namespace mcl::backends::llvmir {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Primitive;
using mcpl::Stmt;

namespace {

using Facts = std::vector<std::pair<const Decl*, const Decl*>>;

// Replacing atoms stops after this many steps (each atom is replaced once;
// an initialiser can bring in a few more).
constexpr int kMaxSteps = 64;
// Coefficients stay far from int64_t's limits, so that sums of products fit.
constexpr int64_t kLimit = int64_t(1) << 40;

bool is_int(const Expr& e) { return e.type.primitive == Primitive::Int && !e.type.is_array(); }

std::optional<int64_t> constant(const Expr& e) { return mcpl::checked_constant_int_value(e); }

// (sum of terms[x] * x + constant) / den, den > 0; ok is false once a
// coefficient grew past kLimit (the proof then fails).
struct Form {
    std::map<const Decl*, int64_t> terms;
    int64_t constant = 0;
    int64_t den = 1;
    bool ok = true;
};

Form constant_form(int64_t c) {
    Form f;
    f.constant = c;
    return f;
}

Form atom_form(const Decl* d) {
    Form f;
    f.terms[d] = 1;
    return f;
}

int64_t checked(__int128 v, bool& ok) {
    if (v > kLimit || v < -kLimit) {
        ok = false;
        return 0;
    }
    return static_cast<int64_t>(v);
}

// Divides through by the common factor, drops zero terms.
Form normalized(Form f) {
    int64_t g = std::gcd(f.den, f.constant);
    for (auto it = f.terms.begin(); it != f.terms.end();) {
        if (it->second == 0) {
            it = f.terms.erase(it);
            continue;
        }
        g = std::gcd(g, it->second);
        ++it;
    }
    if (g > 1) {
        f.den /= g;
        f.constant /= g;
        for (auto& term : f.terms) term.second /= g;
    }
    return f;
}

// ka * a + kb * b.
Form combine(const Form& a, int64_t ka, const Form& b, int64_t kb) {
    Form f;
    f.ok = a.ok && b.ok;
    __int128 den = static_cast<__int128>(a.den) / std::gcd(a.den, b.den) * b.den;
    f.den = checked(den, f.ok);
    if (!f.ok) return f;
    __int128 fa = static_cast<__int128>(ka) * (den / a.den);
    __int128 fb = static_cast<__int128>(kb) * (den / b.den);
    f.constant = checked(fa * a.constant + fb * b.constant, f.ok);
    for (const auto& [d, q] : a.terms) f.terms[d] = checked(fa * q + fb * (b.terms.count(d) ? b.terms.at(d) : 0), f.ok);
    for (const auto& [d, q] : b.terms)
        if (!a.terms.count(d)) f.terms[d] = checked(fb * q, f.ok);
    return normalized(f);
}

Form scaled(const Form& a, int64_t k) { return combine(a, k, Form{}, 0); }

Form divided(Form a, int64_t d) {
    a.den = checked(static_cast<__int128>(a.den) * d, a.ok);
    return normalized(a);
}

bool declared_after(const Decl* a, const Decl* b) {
    return std::tie(a->location.line, a->location.column) > std::tie(b->location.line, b->location.column);
}

}  // namespace

// One proof: the facts of the access's place, and the variables found to be
// at least 1 there (counts of loops the access is inside).
struct LinearBounds::Proof {
    const IndexRanges& ranges;
    const Facts& facts;
    std::set<const Decl*> positive;

    // A variable that keeps its value where the access is.
    const Decl* atom(const Expr& e) const {
        const Decl* d = IndexRanges::plain_variable(e);
        if (!d || !is_int(e)) return nullptr;
        return !d->is_written || ranges.loop_of(d) ? d : nullptr;
    }

    // Whether evaluating `e` cannot overflow int, so that its value is the
    // mathematical one.
    bool evaluates_exactly(const Expr& e) const {
        return (is_int(e) && IndexRanges::plain_variable(e)) || ranges.range(e).has_value();
    }

    // Whether every value of `e` is a multiple of s.
    bool multiple_of(const Expr& e, int64_t s, int depth = 0) const {
        if (std::optional<int64_t> c = constant(e)) return *c % s == 0;
        if (depth > 8 || !is_int(e)) return false;
        switch (e.kind) {
        case Expr::Kind::Var: {
            const Decl* d = IndexRanges::plain_variable(e);
            return d && !d->is_written && d->init && evaluates_exactly(*d->init) &&
                   multiple_of(*d->init, s, depth + 1);
        }
        case Expr::Kind::Unary: return e.op == "-" && multiple_of(*e.args[0], s, depth + 1);
        case Expr::Kind::Binary:
            if (e.op == "*") return multiple_of(*e.args[0], s, depth + 1) || multiple_of(*e.args[1], s, depth + 1);
            if (e.op == "+" || e.op == "-")
                return multiple_of(*e.args[0], s, depth + 1) && multiple_of(*e.args[1], s, depth + 1);
            return false;
        default: return false;
        }
    }

    // An upper (or lower) bound of `e`; `at_least_one`: e is known >= 1.
    std::optional<Form> bound(const Expr& e, bool upper, bool at_least_one) {
        if (!is_int(e)) return std::nullopt;
        if (std::optional<int64_t> c = constant(e)) return constant_form(*c);
        std::optional<Form> f = linear(e, upper, at_least_one);
        if (f && f->ok) return f;
        std::optional<IntRange> r = ranges.range(e);
        if (!r) return std::nullopt;
        return constant_form(upper ? r->hi : r->lo);
    }

    std::optional<Form> linear(const Expr& e, bool upper, bool at_least_one) {
        switch (e.kind) {
        case Expr::Kind::Var: {
            const Decl* d = atom(e);
            if (!d) return std::nullopt;
            if (at_least_one) positive.insert(d);
            return atom_form(d);
        }
        case Expr::Kind::Unary: {
            std::optional<Form> a = e.op == "-" ? bound(*e.args[0], !upper, false) : std::nullopt;
            if (!a) return std::nullopt;
            return scaled(*a, -1);
        }
        case Expr::Kind::Binary: {
            const Expr& x = *e.args[0];
            const Expr& y = *e.args[1];
            if (e.op == "+" || e.op == "-") {
                bool plus = e.op == "+";
                std::optional<Form> a = bound(x, upper, false);
                std::optional<Form> b = a ? bound(y, plus ? upper : !upper, false) : std::nullopt;
                if (!b) return std::nullopt;
                return combine(*a, 1, *b, plus ? 1 : -1);
            }
            if (e.op == "*") {
                std::optional<int64_t> cy = constant(y);
                std::optional<int64_t> cx = cy ? std::nullopt : constant(x);
                if (!cx && !cy) return std::nullopt;
                int64_t c = cy ? *cy : *cx;
                // c * x >= 1 with c > 0 means x >= 1
                std::optional<Form> a = bound(cy ? x : y, c >= 0 ? upper : !upper, at_least_one && c > 0);
                if (!a) return std::nullopt;
                return scaled(*a, c);
            }
            if (e.op == "/") {
                // x / d truncates; for x >= 0 it lies in [(x - d + 1) / d, x / d].
                // A quotient >= 1 means x >= d.
                std::optional<int64_t> d = constant(y);
                if (!d || *d <= 0) return std::nullopt;
                std::optional<IntRange> r = ranges.range(x);
                if (!at_least_one && !(r && r->lo >= 0)) return std::nullopt;
                std::optional<Form> a = bound(x, upper, at_least_one);
                if (!a) return std::nullopt;
                if (!upper) a = combine(*a, 1, constant_form(*d - 1), -1);
                return divided(*a, *d);
            }
            return std::nullopt;
        }
        default: return std::nullopt;
        }
    }

    // A bound of atom d that holds where the access is (see the header).
    std::optional<Form> expansion(const Decl* d, bool upper) {
        if (const Stmt* loop = ranges.loop_of(d)) {
            if (loop->kind == Stmt::Kind::Foreach) {
                if (!upper) return constant_form(0);
                if (!evaluates_exactly(*loop->count)) return std::nullopt;
                std::optional<Form> count = bound(*loop->count, true, true);
                if (!count) return std::nullopt;
                return combine(*count, 1, constant_form(1), -1);
            }
            const Expr& first = *d->init;
            const Expr& limit = *loop->condition->args[1];
            bool strictly = loop->condition->op == "<";
            if (!upper) return evaluates_exactly(first) ? bound(first, false, false) : std::nullopt;
            if (!evaluates_exactly(limit)) return std::nullopt;
            // the body runs: limit > k >= first (or >=, with <=)
            std::optional<IntRange> r = ranges.range(first);
            bool limit_positive = r && r->lo >= (strictly ? 0 : 1);
            std::optional<Form> b = bound(limit, true, limit_positive);
            if (!b || !strictly) return b;
            int64_t s = IndexRanges::loop_stride(*loop);
            int64_t gap = s > 1 && multiple_of(first, s) && multiple_of(limit, s) ? s : 1;
            return combine(*b, 1, constant_form(gap), -1);
        }
        if (upper)
            for (const auto& [x, below] : facts)
                if (x == d) return combine(atom_form(below), 1, constant_form(1), -1);
        if (!d->is_written && d->init && evaluates_exactly(*d->init))
            return bound(*d->init, upper, positive.count(d) > 0);
        return std::nullopt;
    }
};

bool LinearBounds::stays_below(const Expr& index, const Expr& extent, const Facts& facts) const {
    Proof proof{ranges_, facts, {}};
    if (!ranges_.range(index) || !proof.evaluates_exactly(extent)) return false;
    std::optional<Form> high = proof.bound(index, true, false);
    std::optional<Form> low = high ? proof.bound(extent, false, false) : std::nullopt;
    if (!low) return false;
    // a lower bound of extent - index; it must be positive
    Form difference = combine(*low, 1, *high, -1);
    std::set<const Decl*> replaced;
    for (int step = 0; difference.ok && step < kMaxSteps; ++step) {
        const Decl* next = nullptr;
        for (const auto& term : difference.terms)
            if (!replaced.count(term.first) && (!next || declared_after(term.first, next))) next = term.first;
        if (!next) break;
        replaced.insert(next);
        int64_t q = difference.terms.at(next);
        std::optional<Form> by = proof.expansion(next, q < 0);
        if (!by) continue;
        difference.terms.erase(next);
        difference = combine(difference, 1, divided(*by, difference.den), q);
    }
    // what is left counts with its interval
    while (difference.ok && !difference.terms.empty()) {
        auto [d, q] = *difference.terms.begin();
        std::optional<IntRange> r = ranges_.variable(d);
        if (!r) return false;
        difference.terms.erase(d);
        difference = combine(difference, 1, divided(constant_form(q > 0 ? r->lo : r->hi), difference.den), q);
    }
    return difference.ok && difference.terms.empty() && difference.constant > 0;
}

}  // namespace mcl::backends::llvmir
