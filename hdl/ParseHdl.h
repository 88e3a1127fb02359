// Pass: parse one HDL file into the HDL AST.
//
// Needs: the file's text registered in a SourceManager.
// Does: runs the ANTLR-generated lexer and parser (grammar/HDL.g4), reports
//   syntax errors as located diagnostics, and builds our own AST: block kinds
//   are classified, flag statements (`default;`, `read_only;`) are told apart
//   from references, units are split into prefix and base and checked.
// Guarantees: returns a Description with a location on every node, or
//   nullptr after reporting at least one error. Never throws on bad input;
//   nesting deeper than kMaxNesting (support/ParseSupport.h) is rejected before parsing so that
//   pathological inputs cannot exhaust the stack, and malformed UTF-8 is
//   reported before ANTLR sees it. ANTLR types stay in the
//   .cpp file.
#pragma once

#include <memory>

#include "hdl/Ast.h"
#include "support/Diagnostics.h"

namespace mcl::hdl {

std::unique_ptr<Description> parse_hdl(uint32_t file, const SourceManager& sources,
                                       DiagnosticEngine& diags);

}  // namespace mcl::hdl
