// Symbolic quantities for feedback: MCPL integer expressions as GiNaC
// expressions over the kernel's parameters and constants, simplified and
// printed stably ("2*m*n*p", "(h*fh)/(h+fh)"), with example values
// substituted when the user gave them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "compiler/ast/Ast.h"
#include "feedback/Remark.h"

namespace mcl::feedback {

// Example values from `--param name=value`.
using Params = std::map<std::string, double>;

class Symbols {
public:
    explicit Symbols(const Params& params) : params_(params) {}

    // The symbol for a variable name (one per name).
    GiNaC::symbol symbol(const std::string& name);

    // `e` as a GiNaC expression: literals, + - * / (exact division), `^`,
    // divide_up/min/max of expressible arguments (min of a number and a
    // symbolic value as the number: an upper bound, the full tile of a tiled
    // loop), hardware values (their number), scalar variables (a symbol
    // each; a `const int` with a value, a module's constants, and a local
    // assigned only where it is declared, are replaced by their value's
    // expression). nullopt when `e` reads an array or calls a function: the
    // quantity is then not expressible.
    std::optional<GiNaC::ex> expression(const mcpl::Expr& e);

    // Remembers the value of a `const` declaration so that later uses of
    // its name expand to it.
    void define_constant(const mcpl::Decl& d);

    // `e` with the --param values substituted (whole numbers exactly).
    GiNaC::ex with_values(const GiNaC::ex& e) const;

    // The quantity with its value when every symbol of `e` has one.
    NamedQuantity quantity(const std::string& name, const GiNaC::ex& e) const;

    // Names of symbols in `e` that have no example value.
    std::vector<std::string> missing_values(const GiNaC::ex& e) const;

    // Stable text of an expression, e.g. "2*m*n*p".
    static std::string text(const GiNaC::ex& e);
    // The same as C++ in doubles ("2.0*m*n*p", no int product that could
    // overflow), stable across runs; nullopt when C cannot spell a part of
    // it (a fractional power, a function).
    static std::optional<std::string> c_text(const GiNaC::ex& e);

private:
    const Params& params_;
    std::map<std::string, GiNaC::symbol> symbols_;
    std::map<std::string, GiNaC::ex> constants_;
    int expanding_ = 0;  // depth of locals expanded into their values
};

// MCPL's integer `/` and `%` on the non-negative values of indices and
// sizes: floor division and remainder, as symbolic functions that simplify
// what can be known: terms that are multiples of the divisor leave the
// division (`(32*w + l) / 16` is `2*w + l / 16`), numbers are computed
// (`17 / 16` is 1, `17 % 16` is 1), and a divisor that divides the whole
// numerator divides it (`n*b / n` is b). The rest stays a function of its
// arguments, printed "floor(a/b)" and "(a mod b)". Terms are taken to be
// integers (the symbols stand for integer indices and sizes).
GiNaC::ex floor_quotient(const GiNaC::ex& a, const GiNaC::ex& b);
GiNaC::ex remainder_of(const GiNaC::ex& a, const GiNaC::ex& b);
// Whether `e` still holds a floor division or remainder: a stride of such
// an address changes from one unit to the next and has no single value.
bool has_integer_division(const GiNaC::ex& e);
// A stride for a message: with_value, or "varying" (no unit) for one that
// has_integer_division.
std::string stride_text(const Symbols& symbols, const GiNaC::ex& stride);

// Text for remark messages, shared by the passes: a number without a fraction
// where it has none ("8192"), an expression with its value where it has one
// and is not a number ("4*p (= 8192)"), and the --param values a
// computation lacks ("needs a value for p: --param p=...").
std::string number_text(double v);
// `v` through a printf format ("%.3g"), and with an SI prefix to three
// digits: 66.9e12 -> "66.9 T", 268435456 -> "268 M", 12 -> "12".
std::string printf_text(const char* format, double v);
std::string prefixed(double v);
std::string with_value(const Symbols& symbols, const GiNaC::ex& e);
std::string needs_values_text(const std::vector<std::string>& names);

}  // namespace mcl::feedback
