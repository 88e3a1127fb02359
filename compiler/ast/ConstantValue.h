// Integer constant folding over MCPL expressions, shared by the checker
// (errors in constant expressions, sizes checked against the hardware),
// translation (deciding whether a split needs a guard) and code generation
// (sizes of arrays that must be constant in the target language).
//
// Needs: an expression; a lookup that gives the value of a variable
//   reference, or std::nullopt when it is not a known constant (translation
//   looks names up in the constants it has seen; backends follow the checked
//   AST's declaration to its `const` initialiser).
// Does: folds integer literals, hardware values, variables the lookup knows,
//   `+ - * / %` (division truncating), `^` (power, exponent not negative),
//   `& | << >>`, unary minus, divide_up, min and max, with the semantics of
//   MCPL's `int` (32-bit, signed) as the interpreter has them. A sink, when
//   given, hears of every problem: division or modulo by a constant zero,
//   a shift by a constant outside 0 to 31 (whether or not the other operand
//   is constant), a left shift of a negative number, a result or literal
//   outside the range of int; it also sees the problems in indices and call
//   arguments, which do not fold themselves.
// Guarantees: a value only when every leaf folds and no step has a problem;
//   the value is within int's range; never divides by zero, never overflows.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"

namespace mcl::mcpl {

inline constexpr int64_t kIntMin = INT32_MIN;  // MCPL's int is 32-bit
inline constexpr int64_t kIntMax = INT32_MAX;

using ConstantLookup = std::function<std::optional<int64_t>(const Expr& var)>;

// What is wrong with a constant expression, and where.
struct ConstantProblem {
    SourceLocation location;
    std::string message;
};
using ConstantProblemSink = std::function<void(const ConstantProblem&)>;

std::optional<int64_t> constant_int_value(const Expr& e, const ConstantLookup& lookup,
                                          const ConstantProblemSink& problems = {});

// The lookup for checked ASTs: a `const` scalar whose initialiser folds.
std::optional<int64_t> checked_constant_int_value(const Expr& e, const ConstantProblemSink& problems = {});

// The iterations of `for (int v = A; v < B; v++)` (or `v <= B`, or
// `v += S` with S > 0) when A, B and S fold to constants and the body
// assigns v nowhere (no assignment, step or swap of it, and no call that
// may write it); nullopt otherwise, and for more than 2^31 - 1 iterations.
// For backends that unroll: iteration k has v = first + k * stride.
struct ConstantLoop {
    int64_t first = 0;
    int64_t stride = 1;
    int64_t trips = 0;
};
std::optional<ConstantLoop> constant_loop(const Stmt& for_loop);

// Whether `e` names a scalar that nothing writes (a parameter, or a local
// that keeps the value it was declared with).
bool names_unwritten_scalar(const Expr& e);

// Whether `a` and `b` are equal wherever a unit evaluates both: they fold
// to the same constant, or they apply the same operators and builtin
// calls (divide_up, min, ...) to the same scalars that nothing writes, or
// to unwritten scalars declared with such values (translation's
// `nrWarps_t = divide_up(T, nrThreads_t)` of two sibling loops).
bool same_int_value(const Expr& a, const Expr& b);

// The array extents of a record field, outermost first (empty for a scalar
// field). The checker requires them to be constant (literals or `const`
// ints); 0 stands for one that does not fold, which only a program with
// errors has.
std::vector<int64_t> record_field_extents(const BasicDecl& field);

// Elements one record value holds in `field`: the product of its extents,
// 1 for a scalar field, 0 when an extent does not fold or the product
// overflows (only a program with errors has either).
int64_t record_field_element_count(const BasicDecl& field);

}  // namespace mcl::mcpl
