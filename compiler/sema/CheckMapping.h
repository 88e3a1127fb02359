// Pass: check how a program maps onto its hardware descriptions, and give
// every declaration its memory space.
//
// Needs: a Program after resolve_names (every Var has its decl, every Call
//   its function or builtin, every foreach and barrier its name as written)
//   and the hardware library.
// Does: for every function, with the HardwareModel of its description:
//   - foreach loops nest as the par_groups nest (loops over the same
//     par_group may nest: multi-dimensional); the par_group exists; a
//     dimension expression does not use an enclosing foreach index;
//   - every declaration's memory spaces exist in the description and are
//     visible at its nesting (thesis Fig. 3.6): a space declared at a
//     par_unit is usable inside foreach loops over that unit's par_group and
//     deeper; top-level spaces everywhere; a parameter's space is a
//     top-level one, except in device functions (functions without a
//     foreach that are called inside foreach loops, directly or through
//     other device functions), which run on the executing par_unit and see
//     every space; of several named spaces (`reg main`) the first visible
//     one is chosen;
//   - a variable of a space that the units of a par_unit share is declared
//     in the foreach over that unit's par_group, not deeper nor in a device
//     function, where each unit would run the declaration (the reference
//     would give each unit its own array, the backends one for all);
//   - arrays and written variables without a modifier get the `default`
//     space of their own scope, or else a top-level one, or an error if
//     there is none; "written" is judged before
//     infer_read_write: assigned, stepped, swapped or passed to a non-const
//     parameter; Decl::memory_space is set for every variable that has one;
//   - `barrier(ms)` names a memory space shared by the units that reach it:
//     one declared at an enclosing scope of the innermost foreach around the
//     barrier (in a device function: of the executing par_unit), not one
//     private to the executing unit.
//   The thesis's "executing statements only in the innermost foreach" is
//   not enforced: block-level shared declarations and cooperative loops
//   around an inner foreach are normal kernels.
// Guarantees: each violation is a located error naming what was expected.
#pragma once

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

void check_mapping(Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags);

}  // namespace mcl::mcpl
