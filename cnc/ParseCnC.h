// Pass: parse one .cnc file into the graph AST (cnc/Ast.h).
//
// Needs: the file's text registered in a SourceManager.
// Does: runs the ANTLR-generated lexer and parser (grammar/CnC.g4), reports
//   syntax errors as located diagnostics and builds our own AST: constants
//   with their type (int or float) and value, item, tag and step
//   collections, prescriptions with affinities, relations with the tag
//   functions of their items, and the environment's puts and gets.
// Guarantees: returns a Graph with a location on every node, or nullopt
//   after reporting at least one error. Never throws on bad input: malformed
//   UTF-8 and nesting deeper than kMaxNesting are rejected before parsing.
//   ANTLR types stay in the .cpp file.
#pragma once

#include <optional>

#include "cnc/Ast.h"
#include "support/Diagnostics.h"

namespace mcl::cnc {

std::optional<Graph> parse_cnc(uint32_t file, const SourceManager& sources, DiagnosticEngine& diags);

}  // namespace mcl::cnc
