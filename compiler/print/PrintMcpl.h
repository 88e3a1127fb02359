// Pass: print an MCPL AST back as MCPL source.
//
// Needs: a Module as the parser builds it or as a later pass (translation
//   between levels) rewrites it; the checker's annotations are not read.
// Does: writes the module in one stable layout: the `package`, `module`,
//   `export` and `import` lines, then the constants as one group, then records
//   and functions, with a blank line between these top-level items; 4-space indentation, one statement per
//   line, K&R braces. Expressions get only the parentheses that the grammar's
//   precedence and associativity require (`^` binds tighter than unary minus
//   and groups to the right; the binary operators group to the left). Float
//   literals keep their spelling. The bodies of `if`, `for` and `foreach` keep
//   their AST shape: a Block prints as `{ ... }`, any other statement on its
//   own indented line.
// Guarantees: the output parses, and parsing it gives the same AST up to
//   source locations, so print(parse(print(m))) == print(m). The one exception
//   to the AST shape is a dangling else: a then-branch that would otherwise
//   capture the `else` of its enclosing `if` is printed inside braces, which
//   then parse as a Block. Comments are not in the AST and are not printed.
//   Throws std::invalid_argument on an operator the grammar does not have.
#pragma once

#include <string>

#include "compiler/ast/Ast.h"

namespace mcl::mcpl {

std::string print_module(const Module& m);

// Single pieces, for messages and JSON dumps: `float[n, m]`, `a[i, k] * 2`,
// `const dev float[n] a`.
std::string print_type(const TypeExpr& t);
std::string print_expr(const Expr& e);
std::string print_decl(const Decl& d);

}  // namespace mcl::mcpl
