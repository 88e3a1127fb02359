// Pass: the phases of a work-group in a grid launch (GridMapping), so that a
// grid backend runs the code of a group loop as MCPL means it.
//
// Needs: a checked kernel's GridLaunch whose foreach loops all have their
//   placements, and the backend's configuration (memory space scopes).
// Does: MCPL runs the statements of a group loop (a GPU's block) in order,
//   once per group: an item loop (the block's threads) ends before the
//   statement after it starts. A grid backend runs the code outside item
//   loops in every item of the work-group, each item on its own through the
//   item loops; likewise the code of an item loop (a warp) outside the item
//   loops nested in it (its threads). So that both mean the same:
//   - the items synchronise after an outermost item loop that more of the
//     group's code follows (it may read what other items wrote), and before
//     one that group-level code reading memory precedes since the items
//     last synchronised (the loop may overwrite what a slower item still
//     reads): GridLaunch::barriers_after and barriers_before, which the
//     backend writes as a barrier on every group- and device-scoped space;
//   - inside an item loop no barrier can make the items of one instance
//     wait for each other, so a nested item loop that more of its code
//     follows, or that writes what its code read before it, is refused;
//   - code outside the innermost item loops that writes memory (array
//     elements, variables declared elsewhere, arrays passed to a parameter
//     the callee writes) is refused: every item below would make the write;
//   - a scalar declared there and written inside a deeper loop is
//     refused: MCPL has one for the units of that loop, the backend one per
//     item;
//   - a scalar in a group-scoped space is refused (CUDA's __shared__ takes
//     no initialiser, OpenCL C's __local none inside a kernel's blocks);
//     a one-element array does what it means.
// Guarantees: every barrier is at group level, where every item of the
//   work-group reaches it (code there decides only on group indices,
//   parameters and memory that all items read alike); every refusal is a
//   located error naming the backend.
#pragma once

#include <string>

#include "backends/TargetConfig.h"
#include "backends/cfamily/GridMapping.h"
#include "support/Diagnostics.h"

namespace mcl::backends {

void plan_group_phases(GridLaunch& launch, const BackendConfig& config, DiagnosticEngine& diags);

}  // namespace mcl::backends
