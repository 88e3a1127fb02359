// Pass: parse one MCPL file into the MCPL AST.
//
// Needs: the file's text registered in a SourceManager.
// Does: runs the ANTLR-generated lexer and parser (grammar/MCPL.g4), reports
//   syntax errors as located diagnostics and builds our own AST
//   (compiler/ast/Ast.h): declarations split into memory-space modifiers,
//   `const` and their `as` forms; statements, variables with index groups,
//   calls and operators, literals with their spelling. Global variables
//   (anything at the top level but `const` with a value) are rejected here.
// Guarantees: returns a Module with a location on every node, or nullptr
//   after reporting at least one error. Never throws on bad input: malformed
//   UTF-8 and nesting deeper than kMaxNesting are rejected before parsing.
//   ANTLR types stay in the .cpp file.
#pragma once

#include <memory>

#include "compiler/ast/Ast.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

std::unique_ptr<Module> parse_mcpl(uint32_t file, const SourceManager& sources,
                                   DiagnosticEngine& diags);

}  // namespace mcl::mcpl
