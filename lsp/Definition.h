// textDocument/definition: where the name under the cursor is defined.
//
// Needs: the document's last Analysis.
// Does: MCPL: a variable's use goes to its declaration (the `as` form it
//   names, a constant of an imported module in that module's file); a
//   call to the called function and a record type in a declaration to the
//   record (in whichever module); a declaration or function name to
//   itself; an import to the imported module's file or to the hardware
//   description's `.hdl` file; the description in a function header to
//   its `.hdl` file; an export to the exported function or record. HDL:
//   the parent after `specializes` goes to its `.hdl` file, the name after
//   `hardware_description` to the description itself. A description is
//   found in the Analysis's library (built-in directory, then
//   --hwd-path), at its name after `hardware_description`.
// Guarantees: an LSP Location (uri and range of the defining name), or
//   null when the name has no definition in source (builtins, unresolved
//   names) or nothing is under the cursor.
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/Analysis.h"

namespace mcl::lsp {

nlohmann::json definition(const Analysis& analysis, SourceLocation position);

}  // namespace mcl::lsp
