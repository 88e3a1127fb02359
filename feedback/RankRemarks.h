// Ranking of remarks for a reader: the bound first, then what costs the
// most time, repeats folded, at most a page.
//
// Needs: the remarks of run_feedback, with the impacts their passes set
//   (Remark::impact).
// Does:
//   - estimate_impacts: an impact for the remarks whose passes leave it to
//     the reader's judgement: data reuse and faster memory from the reuse
//     ratio r (the share 1 - 1/r of the loads that a copy on chip saves,
//     weighted 0.3 and 0.45: reuse is an opportunity, faster memory the step
//     that takes it; below the cost of an uncoalesced access, which caches
//     do not repair), a fixed 0.1 for transfers between host and device (the
//     application decides how often they happen), 0.02 for the counts
//     (operations, arithmetic intensity), which inform rather than advise.
//     Warnings (a problem in the input) rank as 1.
//   - rank_remarks: bound remarks first (in source order), then the others
//     by impact, highest first, ties in source order. With a limit, the
//     cache, data-reuse and faster-memory remarks of one access (judged for
//     every cache and every loop around it) fold into the one with the
//     highest impact, which says how many it stands for; the first `limit`
//     of what remains are shown and the rest counted.
// Guarantees: the remarks are not changed otherwise; with limit 0 every
//   remark is shown, unfolded, in the same order: nothing is lost.
#pragma once

#include <cstddef>
#include <vector>

#include "feedback/Remark.h"

namespace mcl::feedback {

void estimate_impacts(std::vector<Remark>& remarks);

struct RankedRemarks {
    std::vector<Remark> shown;
    size_t folded = 0;     // remarks folded into a shown one
    size_t not_shown = 0;  // remarks (after folding) beyond the limit
};

// `limit` 0: all remarks, unfolded.
RankedRemarks rank_remarks(std::vector<Remark> remarks, size_t limit);

}  // namespace mcl::feedback
