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
    // divide_up/min/max of expressible arguments, hardware values (their
    // number), scalar variables (a symbol each; a `const int` with a value
    // is replaced by that value's expression). nullopt when `e` reads an
    // array or calls a function: the quantity is then not expressible.
    std::optional<GiNaC::ex> expression(const mcpl::Expr& e);

    // Remembers the value of a `const` declaration so that later uses of
    // its name expand to it.
    void define_constant(const mcpl::Decl& d);

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
};

// Text for remark messages, shared by the passes: a number without a fraction
// where it has none ("8192"), an expression with its value where it has one
// and is not a number ("4*p (= 8192)"), and the --param values a
// computation lacks ("needs a value for p: --param p=...").
std::string number_text(double v);
std::string with_value(const Symbols& symbols, const GiNaC::ex& e);
std::string needs_values_text(const std::vector<std::string>& names);

}  // namespace mcl::feedback
