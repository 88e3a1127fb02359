// Pass: cache behaviour (thesis 3.6.4): per cache, access and enclosing
// loop, the best and worst case number of cache-line fetches and whether
// the access does, may or does not benefit from the cache.
//
// Needs: a checked function, its accesses (LoopNest.h) and its hardware
//   model; caches with a cache_line_size (a cache without one is skipped).
// Does: for each cache and each access to a variable in a memory space the
//   cache holds, takes the access's byte offset (AccessAddress.h) and, per
//   enclosing loop (outermost first), the stride: offset(index = start +
//   step) - offset(index = start). With N the loop's iterations:
//   - the units that reach the cache bound N for a foreach: the cache's
//     scope is the lowest device node containing the cache and the far ends
//     of its interconnects; the outermost execution units in that scope
//     with slots for the loop's par_unit give the bound (slots times their
//     instances in the scope; load-store units preferred where both kinds
//     have slots). N_eff = min(N, bound), the bound itself when N has no
//     value (the units that use the cache at once);
//   - best case: 1 fetch for stride 0, N_eff * |stride| / line for a stride
//     below the line size, N_eff otherwise (one fetch per iteration is the
//     most one element needs);
//   - worst case: N_eff; for a foreach over lock-step units (a par_unit with
//     slots on the load-store units of a simd or load-store group in the
//     scope) the units of one lock-step group that read one line count
//     once: (N_eff / W) * min(W, W * |stride| / line), W the group's width;
//   - verdict: "does not benefit" when |stride| >= line (every iteration
//     its own line), "does benefit" for lock-step units with a smaller
//     stride (they share lines), "may benefit" otherwise (reuse depends on
//     the line staying in the cache).
//   A stride without a value (symbolic in a parameter, no --param) is
//   assumed to be at least a line, and the remark says so.
//   On a description that is cache-only (no addressable memory inside an
//   execution unit other than caches, as CPUs and the Xeon Phi), the
//   "does not benefit" remarks add the thesis' advice to make each access
//   benefit from the cache, and one remark at the function says so.
// Guarantees: remarks are at the access, in source order of the accesses,
//   then cache (description order), then loop (outermost first); messages
//   name the access as written and the loop by its index and line; an
//   unpredictable index (thesis: reads an array, or names a written
//   variable other than a loop index) is reported once per access and
//   cache. Remarks are approximate where the access or a count is.
#pragma once

#include <vector>

#include "feedback/FeedbackPass.h"

namespace mcl::feedback {

std::vector<Remark> cache_behaviour(const FeedbackInput& input);

}  // namespace mcl::feedback
