// Pass: a `return` inside a foreach loop, as structured code that every
// backend can emit.
//
// Needs: a checked program (translated to its leaf, when one is the target).
// Does: in MCPL a `return` inside a foreach ends the unit that runs it (the
//   innermost foreach around it), not the function: the unit's later
//   statements do not run, and other units go on. C-family and LLVM code
//   runs a unit's statements inside a loop or next to other work (a GPU
//   thread's later phases, a CPU's iteration of a loop), where a C
//   `return` would end too much. So in each foreach body whose own
//   statements return (not those of a foreach nested in it) this pass
//   - declares `bool unit_returned = false;` first (a fresh name);
//   - makes each `return;` set it;
//   - runs the statements after one that may return only under
//     `if (!unit_returned)`;
//   - makes a `for` loop that may return also test the flag in its
//     condition, so that it stops; a step that does more than count its
//     own variable by a constant (`j = next[j]` may read out of range
//     once the unit has returned) moves to the end of the body under the
//     flag, and the header's step then leaves the variable as it is
//     (MCPL has no `continue`, so the two run the same statements).
//   A return with a value cannot be inside a foreach (the checker refuses
//   it); returns of a function outside its foreach loops stay.
// Guarantees: no return remains inside a foreach body; every unit runs the
//   statements it ran before, in the same order, and evaluates nothing
//   else than the flag's tests and the counting step of a loop it
//   returned from; the program checks again. A for loop over a record
//   whose step must move is refused with a located error (it has no step
//   that changes nothing). Returns false when it reported an error.
#pragma once

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::lower {

bool lower_unit_returns(mcpl::Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags);

}  // namespace mcl::lower
