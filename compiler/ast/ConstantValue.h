// Integer constant folding over MCPL expressions, shared by translation
// (deciding whether a split needs a guard) and code generation (sizes of
// arrays that must be constant in the target language).
//
// Needs: an expression; a lookup that gives the value of a variable
//   reference, or std::nullopt when it is not a known constant (translation
//   looks names up in the constants it has seen; backends follow the checked
//   AST's declaration to its `const` initialiser).
// Does: folds integer literals, hardware values, variables the lookup knows,
//   `+ - * /` (division truncating, by a non-zero divisor), unary minus,
//   divide_up, min and max.
// Guarantees: a value only when every leaf folds; never divides by zero.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "compiler/ast/Ast.h"

namespace mcl::mcpl {

using ConstantLookup = std::function<std::optional<int64_t>(const Expr& var)>;

std::optional<int64_t> constant_int_value(const Expr& e, const ConstantLookup& lookup);

// The lookup for checked ASTs: a `const` scalar whose initialiser folds.
std::optional<int64_t> checked_constant_int_value(const Expr& e);

}  // namespace mcl::mcpl
