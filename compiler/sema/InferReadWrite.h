// Pass: infer which variables are read and which are written, through the
// whole call graph, and enforce the rules that depend on it.
//
// Needs: a Program after resolve_names (Var and Call annotations set).
// Does: a variable is written when it is the target of an assignment, step
//   (++/--) or swap, through any of its `as` views, or passed to a parameter
//   that the callee writes; read when it appears in an expression (array
//   sizes and indices included), a compound assignment or step (`+=`, `++`
//   read their target), a swap, or is passed to a parameter the callee
//   reads. A declaration's initialiser is not a write. Library functions say it with builtin bodies
//   (`mcl_builtin_read(x); mcl_builtin_write(y);`). Callees are analysed
//   before callers (a fixed point handles recursion); a parameter's flags
//   are the union over all its uses. Sets Decl::is_read / is_written on
//   parameters, locals and constants.
//   Then checks: a `const` variable (or `const` parameter) is never written
//   (located at the write, through calls too, with a note at the callee's
//   parameter); no aliasing: the same variable (any elements of it) is not
//   passed twice to one call when the callee writes one of those
//   parameters; a variable that sizes an array (a parameter) is not
//   written; a scalar the callee writes is passed as a variable of the
//   parameter's type; a variable a call writes is not used elsewhere in
//   the same statement (MCPL leaves the order of evaluation open), and no
//   call in a swap or in divide_up's arguments writes.
// Guarantees: the flags are final for later passes (transfers, feedback,
//   host glue); violations are located errors.
#pragma once

#include "compiler/sema/Program.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

void infer_read_write(Program& program, DiagnosticEngine& diags);

}  // namespace mcl::mcpl
