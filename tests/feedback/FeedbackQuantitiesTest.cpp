// Regression tests for remarks that were wrong: loop indices left in totals
// (triangular loops), integer division and remainder in addresses (the
// cooperative tile load, convolution_gpu's halo load), coalescing judged
// for on-chip memory, a walk that starts at data the thread reads, and the
// device fill of a launch with fewer blocks than multiprocessors.
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "feedback/Symbolic.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string input(const std::string& name) {
    std::ifstream in(std::string(MCL_TEST_INPUTS_DIR) + "/feedback_quantities/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool mentions_symbol(const GiNaC::ex& e, const std::string& name) {
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it) && GiNaC::ex_to<GiNaC::symbol>(*it).get_name() == name) return true;
    return false;
}

std::vector<Remark> at_line(const std::vector<Remark>& remarks, RemarkKind kind, uint32_t line) {
    std::vector<Remark> out;
    for (const Remark& r : of_kind(remarks, kind))
        if (r.location.line == line) out.push_back(r);
    return out;
}

TEST(FeedbackQuantities, TriangularLoopsSumTheirIndexAway) {
    FeedbackResult r = feedback_for(input("syrk.mcl"), "", {{"n", 100}, {"m", 7}});
    ASSERT_EQ(r.diagnostics, "");
    auto ops = of_kind(r.remarks, RemarkKind::Operations);
    ASSERT_EQ(ops.size(), 1u);
    const NamedQuantity* computations = find_quantity(ops[0], "computations");
    ASSERT_NE(computations, nullptr);
    EXPECT_FALSE(mentions_symbol(computations->expr, "i")) << Symbols::text(computations->expr);
    // j runs i + 1 times in iteration i: sum = n(n+1)/2 rows of (3m + 1).
    EXPECT_TRUE(same_expression(computations->expr, "(3*m+1)*n*(n+1)/2")) << Symbols::text(computations->expr);
    EXPECT_DOUBLE_EQ(*computations->value, (3.0 * 7 + 1) * 100 * 101 / 2);
    for (const Remark& reuse : of_kind(r.remarks, RemarkKind::DataReuse))
        for (const NamedQuantity& q : reuse.quantities) EXPECT_FALSE(mentions_symbol(q.expr, "i")) << reuse.message;
    auto a = at_line(r.remarks, RemarkKind::DataReuse, 12);
    ASSERT_FALSE(a.empty()) << describe(r.remarks);
    EXPECT_THAT(a[0].message, HasSubstr("up to n = 100 times"));
}

TEST(FeedbackQuantities, TriangularLoopAfterTranslation) {
    FeedbackResult r = feedback_for(input("scan.mcl"), "hopper", {{"n", 4096}});
    ASSERT_EQ(r.diagnostics, "");
    auto ops = of_kind(r.remarks, RemarkKind::Operations);
    ASSERT_EQ(ops.size(), 1u);
    const NamedQuantity* computations = find_quantity(ops[0], "computations");
    for (const char* index : {"b_i", "w_t_i", "t_t_i", "j"})
        EXPECT_FALSE(mentions_symbol(computations->expr, index)) << Symbols::text(computations->expr);
    EXPECT_TRUE(same_expression(computations->expr, "n*(n+1)/2")) << Symbols::text(computations->expr);
}

TEST(FeedbackQuantities, LocalsAssignedOnceStandForTheirValue) {
    // nbody_gpu: `int count = min(tile, n - jt * tile);` bounds the inner
    // loop; its name is no parameter, so the totals use the full tile.
    std::ifstream in(std::string(MCL_EXAMPLES_DIR) + "/runtime/nbody/nbody_gpu.mcl");
    std::stringstream text;
    text << in.rdbuf();
    FeedbackResult r = feedback_for(text.str(), "hopper");
    ASSERT_EQ(r.diagnostics, "");
    auto ops = of_kind(r.remarks, RemarkKind::Operations);
    ASSERT_FALSE(ops.empty());
    for (const Remark& o : ops)
        for (const NamedQuantity& q : o.quantities) EXPECT_FALSE(mentions_symbol(q.expr, "count")) << o.message;
}

TEST(FeedbackQuantities, SeparateLaunchesDoNotAddTheirSharedMemory) {
    // kmeans_gpu: the assignment launch declares l_c and l_p, the update
    // launch part and l_count; a block holds one launch's arrays at a time.
    std::ifstream in(std::string(MCL_EXAMPLES_DIR) + "/runtime/kmeans/kmeans_gpu.mcl");
    std::stringstream text;
    text << in.rdbuf();
    FeedbackResult r = feedback_for(text.str(), "hopper", {{"d", 4}, {"k", 16}, {"n", 100000}});
    ASSERT_EQ(r.diagnostics, "");
    auto scarce = of_kind(r.remarks, RemarkKind::ScarceResource);
    ASSERT_EQ(scarce.size(), 1u) << describe(r.remarks);
    EXPECT_THAT(scarce[0].message, HasSubstr("(= 5120) bytes per block (part, l_count)"));
    EXPECT_EQ(quantity_value(scarce[0], "declared"), 5120.0);
}

TEST(FeedbackQuantities, NoOccupancyForAFunctionThatIsNotLaunched) {
    FeedbackResult r = feedback_for_example("blackscholes/blackscholes.mcl", "hopper", {{"n", 16777216}});
    ASSERT_EQ(r.diagnostics, "");
    auto occupancy = of_kind(r.remarks, RemarkKind::Occupancy);
    ASSERT_EQ(occupancy.size(), 1u) << "only the kernel, not cnd: " << describe(occupancy);
    EXPECT_THAT(occupancy[0].message, HasSubstr("2 of 32 blocks per multiprocessor fit"));
}

TEST(FeedbackQuantities, FloorDivisionAndRemainderSimplify) {
    GiNaC::symbol w("w"), lane("lane"), n("n");
    EXPECT_TRUE(floor_quotient(32 * w + 5, 16).is_equal(2 * w));
    EXPECT_TRUE(remainder_of(32 * w + 5, 16).is_equal(GiNaC::ex(5)));
    EXPECT_TRUE(floor_quotient(GiNaC::ex(17), 16).is_equal(GiNaC::ex(1)));
    EXPECT_TRUE(floor_quotient(n * w, n).is_equal(w));
    EXPECT_TRUE(remainder_of(n * w + lane, n).is_equal(remainder_of(lane, n)));
    // A number reached after substitution is computed exactly, not as a / b.
    GiNaC::ex q = floor_quotient(lane, 40);
    EXPECT_TRUE(q.subs(lane == 205).is_equal(GiNaC::ex(5)));
    EXPECT_TRUE(has_integer_division(q));
    EXPECT_DOUBLE_EQ(GiNaC::ex_to<GiNaC::numeric>(q.subs(lane == 205).evalf()).to_double(), 5.0);
}

TEST(FeedbackQuantities, CooperativeTileLoadIsCountedLaneByLane) {
    FeedbackResult r = feedback_for(input("tile_load.mcl"), "hopper", {{"n", 1024}});
    ASSERT_EQ(r.diagnostics, "");
    // Rows of 16 threads: a lock-step group of 32 reads two half rows.
    auto src = at_line(r.remarks, RemarkKind::Coalescing, 17);
    ASSERT_EQ(src.size(), 1u) << describe(r.remarks);
    EXPECT_THAT(src[0].message, HasSubstr("2 memory transactions of 128 bytes instead of 1"));
    EXPECT_THAT(src[0].message, Not(HasSubstr("unknown")));
    // tile[tx, ty]: words 16 apart, two rows per group: 8 threads per bank.
    auto transposed = at_line(r.remarks, RemarkKind::BankConflicts, 19);
    ASSERT_EQ(transposed.size(), 1u) << describe(r.remarks);
    EXPECT_THAT(transposed[0].message, HasSubstr("8-way bank conflicts"));
    EXPECT_GT(transposed[0].impact, 0.8);
    auto straight = at_line(r.remarks, RemarkKind::BankConflicts, 17);
    ASSERT_EQ(straight.size(), 1u);
    EXPECT_THAT(straight[0].message, HasSubstr("no bank conflicts"));
}

TEST(FeedbackQuantities, HaloLoadOfConvolutionGpu) {
    FeedbackResult r = feedback_for_example("convolution/convolution_gpu.mcl", "hopper",
                                            {{"h", 2048}, {"w", 2048}, {"fh", 9}, {"fw", 9}});
    ASSERT_EQ(r.diagnostics, "");
    auto a = at_line(r.remarks, RemarkKind::Coalescing, 57);
    ASSERT_EQ(a.size(), 1u) << describe(r.remarks);
    // Rows of 40 elements: a group of 32 threads touches one or two rows.
    EXPECT_THAT(a[0].message, HasSubstr("on average 1.6 (at most 2"));
    EXPECT_THAT(a[0].message, Not(HasSubstr("bytes apart")));
    // Without values: unknown, and which values it needs (not loop indices).
    FeedbackResult symbolic = feedback_for_example("convolution/convolution_gpu.mcl", "hopper");
    auto unknown = at_line(symbolic.remarks, RemarkKind::Coalescing, 57);
    ASSERT_EQ(unknown.size(), 1u);
    EXPECT_THAT(unknown[0].message, HasSubstr("needs values for fw, w"));
    for (const Remark& c : of_kind(symbolic.remarks, RemarkKind::Cache))
        EXPECT_THAT(c.message, Not(HasSubstr("floor("))) << c.message;
}

TEST(FeedbackQuantities, NoCoalescingRemarksOnChipMemoryWithoutBanks) {
    FeedbackResult r = feedback_for_example("convolution/convolution_gpu.mcl", "");
    ASSERT_EQ(r.diagnostics, "");
    for (const Remark& c : of_kind(r.remarks, RemarkKind::Coalescing))
        EXPECT_THAT(c.message, Not(HasSubstr("`l_"))) << "local arrays are on chip at gpu: " << c.message;
}

TEST(FeedbackQuantities, WalkStartingAtDataIsNotABroadcast) {
    FeedbackResult r = feedback_for_example("spmv/spmv.mcl", "gpu");
    ASSERT_EQ(r.diagnostics, "");
    auto vals = at_line(r.remarks, RemarkKind::Coalescing, 16);
    ASSERT_FALSE(vals.empty());
    bool found = false;
    for (const Remark& v : vals) {
        EXPECT_THAT(v.message, Not(HasSubstr("broadcast")));
        found |= v.message.find("`vals[e]`: coalescing unknown: each thread starts loop `e` at `rowptr[r]`") !=
                 std::string::npos;
    }
    EXPECT_TRUE(found) << describe(vals);
}

TEST(FeedbackQuantities, CountsAreWholeAndWorstIsNotBelowBest) {
    // n = 1000: n / 1024 blocks is one block (divide_up), not 0.98 or 0.
    for (const char* level : {"hopper", "fermi", "mi100"}) {
        FeedbackResult r = feedback_for_example("gesummv/gesummv.mcl", level, {{"n", 1000}});
        ASSERT_EQ(r.diagnostics, "");
        for (const Remark& c : of_kind(r.remarks, RemarkKind::Cache)) {
            std::optional<double> best = quantity_value(c, "best_case_fetches");
            std::optional<double> worst = quantity_value(c, "worst_case_fetches");
            if (!best || !worst) continue;
            EXPECT_GE(*best, 1) << level << ": " << c.message;
            EXPECT_LE(*best, *worst) << level << ": " << c.message;
        }
        for (const Remark& d : of_kind(r.remarks, RemarkKind::DataReuse))
            EXPECT_THAT(d.message, Not(HasSubstr("0.98"))) << d.message;
    }
}

TEST(FeedbackQuantities, DeviceFillOfGesummvOnHopper) {
    FeedbackResult r = feedback_for_example("gesummv/gesummv.mcl", "hopper", {{"n", 8192}});
    ASSERT_EQ(r.diagnostics, "");
    auto fill = of_kind(r.remarks, RemarkKind::DeviceFill);
    ASSERT_EQ(fill.size(), 1u) << describe(r.remarks);
    EXPECT_THAT(fill[0].message, HasSubstr("keeps 8 of 132 sm units busy, 124 idle"));
    EXPECT_NEAR(fill[0].impact, 1 - 8.0 / 132, 1e-9);
    // Enough blocks: all busy, little to gain.
    FeedbackResult big = feedback_for_example("gesummv/gesummv.mcl", "hopper", {{"n", 1 << 20}});
    auto all = of_kind(big.remarks, RemarkKind::DeviceFill);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_THAT(all[0].message, HasSubstr("keeps all 132 sm units busy"));
    EXPECT_LT(all[0].impact, 0.1);
}

}  // namespace
}  // namespace mcl::feedback::testing
