// JSON form of an MCPL AST, for `--dump-ast`-style debugging and tests.
//
// Needs: a Module from the parser, checked or not.
// Does: writes every node with its kind, names and location. Locations are
//   `"loc": [line, column]` in the module's file, named once at the top as
//   "file"; a reference into another file (a call target or a declaration
//   in an imported module) adds that node's "file". Types appear as written,
//   as MCPL text (`"float[n, m]"`); expressions elsewhere are trees.
// When the checker has run (the module's functions and records know their
//   module; "checked": true at the top), it also writes the annotations:
//   each expression's `type`, each declaration's `memory_space`, `read` and
//   `written`, each function's `reads` and `writes` (the names of the
//   parameters it reads and writes, through calls included), call targets
//   (a function with its module, or "builtin"), the declaration a variable
//   names (the name and place of the form, so an `as` view is told apart)
//   and hardware values.
#pragma once

#include <nlohmann/json.hpp>

#include "compiler/ast/Ast.h"
#include "support/SourceManager.h"

namespace mcl::mcpl {

nlohmann::json module_to_json(const Module& m, const SourceManager& sources);

}  // namespace mcl::mcpl
