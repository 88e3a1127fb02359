// Pass: warn where a local scalar may be read before anything assigns it.
//
// Needs: a Program after infer_read_write (Var annotations and each
//   parameter's Decl::is_read / is_written set).
// Does: follows each function body in order, with the set of tracked locals
//   that every path so far has assigned: a scalar local of a primitive type,
//   declared without an initialiser or a memory-space modifier. Both
//   branches of an `if` must assign a variable for it to count after it; a
//   for or foreach body may run no times, so what it assigns does not count
//   after the loop (its own later reads in the body see it), unless its
//   constant bounds give it a first iteration (mcpl::constant_loop) or a
//   first unit (a constant count, no return in the body); after a `return`
//   every path is done. A variable passed to a callee parameter
//   that is written and never read is assigned by the call. The first read
//   of a variable that some path leaves unassigned is a warning at the read,
//   with a note at the declaration; one warning per variable.
// Guarantees: reports warnings only, never changes the program; a program
//   without these warnings reads no unassigned local scalar on any path
//   (arrays, records and shared-memory locals are not followed: verify's
//   interpreter finds their unwritten reads at run time).
#pragma once

#include "compiler/sema/Program.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

void check_definite_assignment(const Program& program, DiagnosticEngine& diags);

}  // namespace mcl::mcpl
