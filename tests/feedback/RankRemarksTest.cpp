// Ranking: the bound first, highest impact next, repeats of one access
// folded only when a limit applies, nothing lost without one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "feedback/RankRemarks.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback::testing {
namespace {

using ::testing::HasSubstr;

Remark remark(RemarkKind kind, uint32_t line, double impact, const std::string& message) {
    Remark r;
    r.kind = kind;
    r.location.line = line;
    r.location.column = 1;
    r.impact = impact;
    r.message = message;
    return r;
}

TEST(RankRemarks, BoundFirstThenImpactThenFolded) {
    std::vector<Remark> remarks = {
        remark(RemarkKind::Cache, 5, 0.2, "cache l2"),
        remark(RemarkKind::Cache, 5, 0.05, "cache l1"),
        remark(RemarkKind::Coalescing, 6, 0.9, "not coalesced"),
        remark(RemarkKind::Bound, 1, 0, "bound"),
        remark(RemarkKind::Operations, 1, 0.02, "operations"),
    };
    RankedRemarks ranked = rank_remarks(remarks, 10);
    ASSERT_EQ(ranked.shown.size(), 4u);
    EXPECT_EQ(ranked.shown[0].message, "bound");
    EXPECT_EQ(ranked.shown[1].message, "not coalesced");
    EXPECT_THAT(ranked.shown[2].message, HasSubstr("cache l2 (and 1 more cache remark here"));
    EXPECT_EQ(ranked.folded, 1u);
    EXPECT_EQ(ranked.not_shown, 0u);

    RankedRemarks limited = rank_remarks(remarks, 1);
    ASSERT_EQ(limited.shown.size(), 2u) << "the bound does not count against the limit";
    EXPECT_EQ(limited.not_shown, 3u) << "the folded cache remarks count as what they stand for";

    RankedRemarks all = rank_remarks(remarks, 0);
    EXPECT_EQ(all.shown.size(), remarks.size());
    EXPECT_EQ(all.shown[0].message, "bound");
}

TEST(RankRemarks, MatmulAtHopperFitsOnAPageAndLosesNothing) {
    FeedbackResult r = feedback_for_example("matmul/matmul.mcl", "hopper");
    ASSERT_EQ(r.diagnostics, "");
    RankedRemarks ranked = rank_remarks(r.remarks, 10);
    ASSERT_FALSE(ranked.shown.empty());
    EXPECT_EQ(ranked.shown[0].kind, RemarkKind::Bound);
    EXPECT_LE(ranked.shown.size(), 15u);
    EXPECT_EQ(ranked.shown.size() - 1 + ranked.folded + ranked.not_shown, r.remarks.size() - 1)
        << "every remark is shown, folded into a shown one, or counted";
    EXPECT_EQ(rank_remarks(r.remarks, 0).shown.size(), r.remarks.size());
    // a[i, k] is read by every warp of a block: the step the refinement took.
    EXPECT_EQ(ranked.shown[1].kind, RemarkKind::FasterMemory) << describe(ranked.shown);
}

TEST(RankRemarks, ImpactsAreFractions) {
    for (const char* level : {"", "gpu", "hopper", "x86_avx2", "fermi"}) {
        FeedbackResult r = feedback_for_example("gesummv/gesummv.mcl", level, {{"n", 8192}});
        for (const Remark& x : r.remarks) {
            EXPECT_GE(x.impact, 0) << x.message;
            EXPECT_LE(x.impact, 1) << x.message;
        }
    }
}

}  // namespace
}  // namespace mcl::feedback::testing
