#include "feedback/Symbolic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <vector>
#include <sstream>

namespace mcl::feedback {

namespace {

// A term's numeric factor: 3 for 3*x*y, 5 for 5, 1 for x.
GiNaC::numeric coefficient_of(const GiNaC::ex& term) {
    if (GiNaC::is_a<GiNaC::numeric>(term)) return GiNaC::ex_to<GiNaC::numeric>(term);
    if (GiNaC::is_a<GiNaC::mul>(term)) {
        GiNaC::ex last = term.op(term.nops() - 1);  // GiNaC keeps the numeric factor last
        if (GiNaC::is_a<GiNaC::numeric>(last)) return GiNaC::ex_to<GiNaC::numeric>(last);
    }
    return 1;
}

std::vector<GiNaC::ex> terms_of(const GiNaC::ex& e) {
    std::vector<GiNaC::ex> terms;
    if (GiNaC::is_a<GiNaC::add>(e))
        for (size_t i = 0; i < e.nops(); ++i) terms.push_back(e.op(i));
    else
        terms.push_back(e);
    return terms;
}

bool is_positive_integer(const GiNaC::ex& e) {
    return GiNaC::is_a<GiNaC::numeric>(e) && GiNaC::ex_to<GiNaC::numeric>(e).is_pos_integer();
}

// `term` / `divisor` when that leaves no denominator (an integer multiple).
std::optional<GiNaC::ex> exact_multiple(const GiNaC::ex& term, const GiNaC::ex& divisor) {
    if (is_positive_integer(divisor)) {
        GiNaC::numeric c = coefficient_of(term);
        if (!c.is_integer() || !GiNaC::mod(c, GiNaC::ex_to<GiNaC::numeric>(divisor)).is_zero()) return std::nullopt;
        return (term / divisor).expand();
    }
    GiNaC::ex q = (term / divisor).normal();
    if (!GiNaC::denom(q).is_equal(GiNaC::ex(1))) return std::nullopt;
    return q;
}

GiNaC::ex floor_quotient_eval(const GiNaC::ex& a, const GiNaC::ex& b);
GiNaC::ex remainder_eval(const GiNaC::ex& a, const GiNaC::ex& b);

// "floor(a/b)", "(a mod b)": operands printed above a product's precedence,
// so that a sum or product is parenthesised.
void print_operation(const char* open, const GiNaC::ex& a, const char* op, const GiNaC::ex& b,
                     const GiNaC::print_context& c) {
    c.s << open;
    a.print(c, 50);
    c.s << op;
    b.print(c, 50);
    c.s << ")";
}

void floor_quotient_print(const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::print_context& c) {
    print_operation("floor(", a, "/", b, c);
}

void remainder_print(const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::print_context& c) {
    print_operation("(", a, " mod ", b, c);
}

DECLARE_FUNCTION_2P(mcpl_floor_quotient)
DECLARE_FUNCTION_2P(mcpl_remainder)
// Numerically only where both are numbers; GiNaC's default would drop the
// function and keep its first argument.
GiNaC::ex floor_quotient_evalf(const GiNaC::ex& a, const GiNaC::ex& b) {
    if (GiNaC::is_a<GiNaC::numeric>(a) && GiNaC::is_a<GiNaC::numeric>(b) && !b.is_zero())
        return GiNaC::numeric(std::floor(GiNaC::ex_to<GiNaC::numeric>(a).to_double() /
                                         GiNaC::ex_to<GiNaC::numeric>(b).to_double()));
    return mcpl_floor_quotient(a, b).hold();
}

GiNaC::ex remainder_evalf(const GiNaC::ex& a, const GiNaC::ex& b) {
    if (GiNaC::is_a<GiNaC::numeric>(a) && GiNaC::is_a<GiNaC::numeric>(b) && !b.is_zero()) {
        double x = GiNaC::ex_to<GiNaC::numeric>(a).to_double(), y = GiNaC::ex_to<GiNaC::numeric>(b).to_double();
        return GiNaC::numeric(x - y * std::floor(x / y));
    }
    return mcpl_remainder(a, b).hold();
}

REGISTER_FUNCTION(mcpl_floor_quotient, eval_func(floor_quotient_eval)
                                           .evalf_func(floor_quotient_evalf)
                                           .print_func<GiNaC::print_context>(floor_quotient_print))
REGISTER_FUNCTION(mcpl_remainder, eval_func(remainder_eval)
                                      .evalf_func(remainder_evalf)
                                      .print_func<GiNaC::print_context>(remainder_print))

GiNaC::ex floor_quotient_eval(const GiNaC::ex& a, const GiNaC::ex& b) {
    if (b.is_equal(GiNaC::ex(1))) return a;
    if (a.is_zero() && !b.is_zero()) return 0;
    if (GiNaC::is_a<GiNaC::numeric>(a) && is_positive_integer(b) && GiNaC::ex_to<GiNaC::numeric>(a).is_integer()) {
        const GiNaC::numeric& x = GiNaC::ex_to<GiNaC::numeric>(a);
        const GiNaC::numeric& y = GiNaC::ex_to<GiNaC::numeric>(b);
        return (x - GiNaC::mod(x, y)) / y;
    }
    if (b.is_zero()) return mcpl_floor_quotient(a, b).hold();
    // Whole multiples of b leave the division; so does the part of a
    // number term that is one (17 = 16 + 1 over 16).
    GiNaC::ex pulled = 0, rest = 0;
    for (const GiNaC::ex& term : terms_of(a.expand())) {
        if (auto q = exact_multiple(term, b)) {
            pulled += *q;
        } else if (GiNaC::is_a<GiNaC::numeric>(term) && is_positive_integer(b) &&
                   GiNaC::ex_to<GiNaC::numeric>(term).is_integer()) {
            GiNaC::numeric r = GiNaC::mod(GiNaC::ex_to<GiNaC::numeric>(term), GiNaC::ex_to<GiNaC::numeric>(b));
            pulled += (GiNaC::ex_to<GiNaC::numeric>(term) - r) / GiNaC::ex_to<GiNaC::numeric>(b);
            rest += r;
        } else {
            rest += term;
        }
    }
    if (pulled.is_zero()) return mcpl_floor_quotient(a, b).hold();
    return pulled + (rest.is_zero() ? GiNaC::ex(0) : floor_quotient(rest, b));
}

GiNaC::ex remainder_eval(const GiNaC::ex& a, const GiNaC::ex& b) {
    if (b.is_equal(GiNaC::ex(1))) return 0;
    if (a.is_zero() && !b.is_zero()) return 0;
    if (GiNaC::is_a<GiNaC::numeric>(a) && is_positive_integer(b) && GiNaC::ex_to<GiNaC::numeric>(a).is_integer())
        return GiNaC::mod(GiNaC::ex_to<GiNaC::numeric>(a), GiNaC::ex_to<GiNaC::numeric>(b));
    if (b.is_zero()) return mcpl_remainder(a, b).hold();
    // Multiples of b do not change the remainder.
    bool dropped = false;
    GiNaC::ex rest = 0;
    for (const GiNaC::ex& term : terms_of(a.expand())) {
        if (exact_multiple(term, b)) {
            dropped = true;
        } else if (GiNaC::is_a<GiNaC::numeric>(term) && is_positive_integer(b) &&
                   GiNaC::ex_to<GiNaC::numeric>(term).is_integer()) {
            GiNaC::numeric r = GiNaC::mod(GiNaC::ex_to<GiNaC::numeric>(term), GiNaC::ex_to<GiNaC::numeric>(b));
            dropped |= r != GiNaC::ex_to<GiNaC::numeric>(term);
            rest += r;
        } else {
            rest += term;
        }
    }
    if (!dropped) return mcpl_remainder(a, b).hold();
    return remainder_of(rest, b);
}

}  // namespace

GiNaC::ex floor_quotient(const GiNaC::ex& a, const GiNaC::ex& b) { return mcpl_floor_quotient(a, b); }

bool has_integer_division(const GiNaC::ex& e) {
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::function>(*it)) {
            unsigned serial = GiNaC::ex_to<GiNaC::function>(*it).get_serial();
            if (serial == mcpl_floor_quotient_SERIAL::serial || serial == mcpl_remainder_SERIAL::serial) return true;
        }
    return false;
}
GiNaC::ex remainder_of(const GiNaC::ex& a, const GiNaC::ex& b) { return mcpl_remainder(a, b); }

GiNaC::symbol Symbols::symbol(const std::string& name) {
    auto it = symbols_.find(name);
    if (it != symbols_.end()) return it->second;
    GiNaC::symbol s(name);
    symbols_.emplace(name, s);
    return s;
}

std::optional<GiNaC::ex> Symbols::expression(const mcpl::Expr& e) {
    using K = mcpl::Expr::Kind;
    switch (e.kind) {
    case K::IntLiteral: return GiNaC::ex(GiNaC::numeric(static_cast<long>(e.int_value)));
    case K::FloatLiteral: return GiNaC::ex(GiNaC::numeric(e.float_value));
    case K::BoolLiteral: return std::nullopt;
    case K::Var: {
        if (e.hardware) return GiNaC::ex(GiNaC::numeric(static_cast<long>(e.hardware->value)));
        if (e.var.size() != 1 || !e.var[0].indices.empty() || e.type.is_array()) return std::nullopt;
        const std::string& name = e.var[0].name;
        if (auto it = constants_.find(name); it != constants_.end()) return it->second;
        // A local given its value once (`int count = min(256, n - jt * 256);`),
        // and a module's constant, stand for their values: their names are
        // no parameters --param could set.
        if (e.decl && e.decl->init && !e.decl->is_written && expanding_ < 32) {
            ++expanding_;
            std::optional<GiNaC::ex> value = expression(*e.decl->init);
            --expanding_;
            return value;
        }
        return GiNaC::ex(symbol(name));
    }
    case K::Call: {
        if (e.args.size() != 2 || (e.callee != "divide_up" && e.callee != "min" && e.callee != "max"))
            return std::nullopt;
        auto a = expression(*e.args[0]);
        auto b = expression(*e.args[1]);
        if (!a || !b) return std::nullopt;
        // divide_up(a, b) is at most one unit more than a / b; feedback
        // counts it as a / b (passes flag the result approximate).
        if (e.callee == "divide_up") return GiNaC::ex(*a / *b);
        if (GiNaC::is_a<GiNaC::numeric>(*a) && GiNaC::is_a<GiNaC::numeric>(*b)) {
            auto x = GiNaC::ex_to<GiNaC::numeric>(*a), y = GiNaC::ex_to<GiNaC::numeric>(*b);
            return GiNaC::ex(e.callee == "min" ? (x < y ? x : y) : (x < y ? y : x));
        }
        // The tail of a tiled loop, min(256, n - jt * 256): at most the
        // number, which counts every tile as full.
        if (e.callee == "min" && (GiNaC::is_a<GiNaC::numeric>(*a) || GiNaC::is_a<GiNaC::numeric>(*b)))
            return GiNaC::is_a<GiNaC::numeric>(*a) ? *a : *b;
        return std::nullopt;
    }
    case K::Unary: {
        if (e.op != "-") return std::nullopt;
        auto a = expression(*e.args[0]);
        if (!a) return std::nullopt;
        return GiNaC::ex(-*a);
    }
    case K::Binary: {
        auto a = expression(*e.args[0]);
        auto b = expression(*e.args[1]);
        if (!a || !b) return std::nullopt;
        if (e.op == "+") return GiNaC::ex(*a + *b);
        if (e.op == "-") return GiNaC::ex(*a - *b);
        if (e.op == "*") return GiNaC::ex(*a * *b);
        if (e.op == "/") return GiNaC::ex(*a / *b);
        if (e.op == "^") return GiNaC::ex(GiNaC::pow(*a, *b));
        return std::nullopt;
    }
    }
    return std::nullopt;
}

void Symbols::define_constant(const mcpl::Decl& d) {
    if (!d.is_const || !d.init || d.forms.back().resolved_type.is_array()) return;
    if (auto value = expression(*d.init)) constants_[d.name()] = *value;
}

std::vector<std::string> Symbols::missing_values(const GiNaC::ex& e) const {
    std::set<std::string> missing;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it)) {
            std::string name = GiNaC::ex_to<GiNaC::symbol>(*it).get_name();
            if (!params_.count(name)) missing.insert(name);
        }
    return {missing.begin(), missing.end()};
}

GiNaC::ex Symbols::with_values(const GiNaC::ex& e) const {
    GiNaC::exmap values;
    for (const auto& [symbol_name, s] : symbols_)
        if (auto it = params_.find(symbol_name); it != params_.end()) {
            // Whole numbers exactly, so that floor division and remainder
            // of them are computed.
            double v = it->second;
            values[s] = v == std::floor(v) && std::fabs(v) < 9e15 ? GiNaC::numeric(static_cast<long>(v))
                                                                  : GiNaC::numeric(v);
        }
    return e.subs(values);
}

NamedQuantity Symbols::quantity(const std::string& name, const GiNaC::ex& e) const {
    NamedQuantity q{name, e.normal(), std::nullopt};
    GiNaC::ex substituted = with_values(q.expr).evalf();
    if (GiNaC::is_a<GiNaC::numeric>(substituted) && GiNaC::ex_to<GiNaC::numeric>(substituted).is_real())
        q.value = GiNaC::ex_to<GiNaC::numeric>(substituted).to_double();
    return q;
}

namespace {

std::string fallback_text(const GiNaC::ex& e) {
    std::ostringstream out;
    out << e;
    return out.str();
}

// One term of an expanded polynomial as "2*m*n*p": coefficient first, then
// the symbols in alphabetical order with their powers. `negative` tells the
// caller to subtract it.
// With `c_syntax` the term is C++ in doubles ("2.0*m*n*p", "1.0*n*n"): the
// coefficient always first and as a double, so that no product of ints
// overflows, and powers as products; `others` then collects what C cannot
// spell so (the caller gives up on the expression).
std::string monomial_text(const GiNaC::ex& term, bool& negative, int& degree, bool c_syntax,
                          std::vector<std::string>* unspellable) {
    GiNaC::numeric coefficient = 1;
    std::map<std::string, GiNaC::numeric> powers;
    std::vector<std::string> others;
    auto factor = [&](const GiNaC::ex& f) {
        if (GiNaC::is_a<GiNaC::numeric>(f)) {
            coefficient *= GiNaC::ex_to<GiNaC::numeric>(f);
        } else if (GiNaC::is_a<GiNaC::symbol>(f)) {
            powers[GiNaC::ex_to<GiNaC::symbol>(f).get_name()] += 1;
        } else if (GiNaC::is_a<GiNaC::power>(f) && GiNaC::is_a<GiNaC::symbol>(f.op(0)) &&
                   GiNaC::is_a<GiNaC::numeric>(f.op(1))) {
            powers[GiNaC::ex_to<GiNaC::symbol>(f.op(0)).get_name()] += GiNaC::ex_to<GiNaC::numeric>(f.op(1));
        } else {
            others.push_back(fallback_text(f));
        }
    };
    if (GiNaC::is_a<GiNaC::mul>(term)) {
        for (size_t i = 0; i < term.nops(); ++i) factor(term.op(i));
    } else {
        factor(term);
    }
    negative = coefficient.is_negative();
    if (negative) coefficient = -coefficient;
    std::vector<std::string> parts;
    degree = 0;
    for (const auto& [name, power] : powers) {
        degree += power.is_integer() ? power.to_int() : 1;
        if (!c_syntax) {
            parts.push_back(power == 1 ? name : name + "^" + fallback_text(power));
        } else if (power.is_pos_integer()) {
            for (int k = 0; k < power.to_int(); ++k) parts.push_back(name);
        } else {
            others.push_back(name + "^" + fallback_text(power));
        }
    }
    std::sort(others.begin(), others.end());
    if (c_syntax && unspellable) unspellable->insert(unspellable->end(), others.begin(), others.end());
    parts.insert(parts.end(), others.begin(), others.end());
    if (c_syntax) {
        std::ostringstream number;
        number.precision(17);
        number << coefficient.to_double();
        std::string text = number.str();
        if (text.find_first_of(".e") == std::string::npos) text += ".0";
        parts.insert(parts.begin(), text);
    } else if (coefficient != 1 || parts.empty()) {
        parts.insert(parts.begin(), fallback_text(coefficient));
    }
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : "*") + p;
    return out;
}

// An expanded polynomial, highest degree first, then alphabetically.
std::string polynomial_text(const GiNaC::ex& e, bool c_syntax = false,
                            std::vector<std::string>* unspellable = nullptr) {
    GiNaC::ex expanded = e.expand();
    std::vector<GiNaC::ex> terms;
    if (GiNaC::is_a<GiNaC::add>(expanded)) {
        for (size_t i = 0; i < expanded.nops(); ++i) terms.push_back(expanded.op(i));
    } else {
        terms.push_back(expanded);
    }
    struct Term {
        std::string text;
        bool negative;
        int degree;
    };
    std::vector<Term> printed;
    for (const GiNaC::ex& t : terms) {
        Term p{};
        p.text = monomial_text(t, p.negative, p.degree, c_syntax, unspellable);
        printed.push_back(p);
    }
    std::sort(printed.begin(), printed.end(), [](const Term& a, const Term& b) {
        return a.degree != b.degree ? a.degree > b.degree : a.text < b.text;
    });
    std::string out;
    for (const Term& t : printed) {
        if (out.empty()) out = t.negative ? "-" + t.text : t.text;
        else out += (t.negative ? "-" : "+") + t.text;
    }
    return out;
}

}  // namespace

std::string Symbols::text(const GiNaC::ex& e) {
    // The same expression prints the same way in every run, whatever order
    // GiNaC keeps its terms in: numerator and denominator as sorted polynomials.
    GiNaC::ex fraction = e.normal().numer_denom();
    GiNaC::ex numerator = fraction.op(0), denominator = fraction.op(1);
    if (denominator == 1) return polynomial_text(numerator);
    auto wrapped = [](const GiNaC::ex& part) {
        std::string t = polynomial_text(part);
        bool single = t.find_first_of("+-*/", 1) == std::string::npos;
        return single ? t : "(" + t + ")";
    };
    return wrapped(numerator) + "/" + wrapped(denominator);
}

std::optional<std::string> Symbols::c_text(const GiNaC::ex& e) {
    GiNaC::ex fraction = e.normal().numer_denom();
    std::vector<std::string> unspellable;
    std::string numerator = polynomial_text(fraction.op(0), true, &unspellable);
    std::string denominator = polynomial_text(fraction.op(1), true, &unspellable);
    if (!unspellable.empty()) return std::nullopt;
    if (fraction.op(1) == 1) return numerator;
    return "(" + numerator + ")/(" + denominator + ")";
}

std::string number_text(double v) {
    std::ostringstream out;
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        out << static_cast<long long>(v);
    else
        out << v;
    return out.str();
}

std::string with_value(const Symbols& symbols, const GiNaC::ex& e) {
    std::string text = Symbols::text(e);
    if (GiNaC::is_a<GiNaC::numeric>(e)) return text;
    if (auto v = symbols.quantity("", e).value) return text + " (= " + number_text(*v) + ")";
    return text;
}

std::string printf_text(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string prefixed(double v) {
    static const char* const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    int i = 0;
    while (std::fabs(v) >= 1000 && i < 6) {
        v /= 1000;
        ++i;
    }
    if (i == 0) return printf_text("%.3g", v);
    return printf_text("%.3g", v) + " " + prefixes[i];
}

std::string stride_text(const Symbols& symbols, const GiNaC::ex& stride) {
    if (has_integer_division(stride) && !symbols.quantity("", stride).value) return "varying";
    return with_value(symbols, stride);
}

std::string needs_values_text(const std::vector<std::string>& names) {
    // Appended piece by piece: GCC 12 at -O3 takes `"" + temporary` for an
    // overlapping copy (a false -Wrestrict).
    std::string list, params;
    for (const std::string& n : names) {
        if (!list.empty()) {
            list += ", ";
            params += ' ';
        }
        list += n;
        params += "--param ";
        params += n;
        params += "=...";
    }
    return std::string(names.size() == 1 ? "needs a value for " : "needs values for ") + list + ": " + params;
}

}  // namespace mcl::feedback
