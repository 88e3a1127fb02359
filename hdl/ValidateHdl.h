// Pass: validate one HDL description against the rules of the language.
//
// Needs: the description's AST and the library-wide Resolution (so that
//   blocks included by reference count where they are included).
// Does: checks the top level (one `parallelism` block, a `device` block named
//   after the description, unique top-level names); for every block, the
//   nesting rules of thesis Table A.1 and the properties of Table A.2 as
//   extended by the device subclass hierarchy of Fig. 3.5 (see Schema.h):
//   allowed and required children, allowed, required and duplicate
//   properties, expression forms, units, unit counts of groups, slots of
//   execution units (on the unit or its group), `space` and `slots` naming
//   memory spaces and par_units of this description, `[*]` only on units,
//   at most one `default` memory space per scope, unique names in the
//   parallelism hierarchy.
// Guarantees: every violation is reported at the offending statement with
//   what was expected; returns true when the description is valid, in which
//   case BuildHardwareModel can build it without further checks.
#pragma once

#include "hdl/Ast.h"
#include "hdl/ResolveReferences.h"
#include "support/Diagnostics.h"

namespace mcl::hdl {

bool validate_description(const Description& d, const Resolution& resolution,
                          DiagnosticEngine& diags);

}  // namespace mcl::hdl
