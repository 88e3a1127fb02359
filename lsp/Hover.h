// textDocument/hover on an MCPL document: what the name under the cursor
// is, and the performance remarks located at it.
//
// Needs: the document's last Analysis (remarks exist only when it checked).
// Does: a variable or array access: its declaration as written (type and
//   memory space), what it is (parameter, local, foreach index, ...) and
//   the remarks at the access, each with its quantities (reuse, strides,
//   bytes, ...: name, symbolic expression, value when example values were
//   given) as a table; for a use, when no remark is at the name itself,
//   those on its line. A call: the callee's header. A function's name: its
//   header and the remarks at it. A record type: its fields. The hardware
//   description in a header or an import: its parent and file. An
//   imported module: its file. An export: what it exports.
// Guarantees: Markdown content (MarkupContent) with the name's range, or
//   null where there is nothing to say; never throws on a well-formed
//   Analysis.
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/Analysis.h"

namespace mcl::lsp {

nlohmann::json hover(const Analysis& analysis, SourceLocation position);

}  // namespace mcl::lsp
