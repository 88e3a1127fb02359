// Pass: propose faster memories for reused data (thesis section 3.6.3,
// "Proposing faster memories"; the gpu row of Table 3.2).
//
// Needs: the reuse findings of DataReuse.h (find_reuse) and the function's
//   hardware model (parallelism hierarchy and device tree).
// Does: for reused data it finds the units that share it and the memory
//   spaces visible to all of them, and compares the memories that hold
//   those spaces with the memory that holds the variable's own space:
//   - an access that does not depend on a foreach loop over par_group G is
//     shared by the units of G: the spaces declared at the par_unit that
//     contains G and at every par_unit around it (and the top-level ones)
//     are visible to them. A `for` loop's reuse is within one unit and gets
//     no proposal.
//   - a dimension with a reuse ratio: each pair of loops of that dimension
//     with a foreach among them and a pair ratio above one (DataReuse's
//     reuse_ratio); the outer foreach of the pair decides the spaces, as
//     above. The first pair with a faster memory is reported.
//   Memory X is faster than memory Y, for the execution units of the
//   executing par_unit, by the first of these that tells them apart: the
//   best interconnect between the memory and those units (lower latency,
//   then higher bandwidth: HardwareModel::interconnects_between), proximity
//   (the deepest device node containing both the memory and a unit: a
//   memory inside the execution unit is closer than one beside it), and
//   capacity (smaller is faster). Caches and non-addressable memories
//   (registers) are not proposed: a variable cannot be declared in them;
//   nor are read-only spaces (constant): only the host fills them, so a
//   kernel cannot stage shared data there.
// Guarantees: one remark per access and proposed space (the outermost loop
//   whose units share the data says it: at fermi the warps of a block, not
//   also the threads of a warp), at the access,
//   naming the space, the memories compared and why; quantity "reuse"
//   (the reuse count or ratio). No remark where no faster space is
//   visible (perfect, accelerator). Approximate as the reuse finding is.
#pragma once

#include <vector>

#include "feedback/FeedbackPass.h"

namespace mcl::feedback {

std::vector<Remark> faster_memory_pass(const FeedbackInput& in);

}  // namespace mcl::feedback
