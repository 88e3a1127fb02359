// Pass: warn where the units that a barrier synchronises may disagree on
// whether they reach it.
//
// Needs: checked functions (names resolved, each variable reference bound to
//   its declaration) and the library their descriptions are in.
// Does: a barrier inside an `if` or a `for` must be reached by every unit it
//   synchronises or by none (the interpreter stops with an error when they
//   disagree; a GPU hangs or computes garbage). For each such construct
//   inside a foreach of the same function, it finds the foreach loops whose
//   units the barrier synchronises (BarrierScopes) and asks whether the
//   condition can differ between those units: whether it depends on their
//   indices, directly or through per-unit variables computed from them or
//   assigned under a condition that does. Memory outside those units
//   (shared, global, parameters) reads the same for every unit at the same
//   index; calls give the same result for the same arguments. A construct
//   whose condition may differ gets a warning at the condition that names
//   the index it depends on and the barrier. So does an `if` holding a
//   `return` that a barrier follows (after it in the blocks around it, or
//   in a loop around it): the units that return leave the others waiting.
//   So does a call that reaches a barrier in the right operand of `&&` or
//   `||` whose left operand may differ (the units it decides skip the call).
// Guarantees: no warning for a condition that depends only on values every
//   unit agrees on (sizes, constants, the indices of enclosing groups that
//   the barrier does not synchronise, such as a block's index for a
//   barrier on `local`). The analysis is conservative, so a warning, not
//   an error: `i % 1 == 0` depends on `i` but agrees. Barriers reached
//   only in a function called inside the foreach are not followed into
//   the callee's own conditions.
#pragma once

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

void check_barrier_uniformity(const Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags);

}  // namespace mcl::mcpl
