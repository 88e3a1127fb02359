// Operation statistics: exact symbolic counts on kernels written for the
// purpose, values with --param, and the approximation flag.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "feedback/OperationStatistics.h"
#include "feedback/Symbolic.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback::testing {
namespace {

using ::testing::HasSubstr;

const std::vector<NamedPass> kPass = testing::only_pass("operation-statistics");

const NamedQuantity& quantity(const Remark& r, const std::string& name) {
    for (const NamedQuantity& q : r.quantities)
        if (q.name == name) return q;
    throw std::runtime_error("no quantity " + name);
}

TEST(OperationStatistics, MatmulAtPerfect) {
    FeedbackResult r = feedback_for_example("matmul/matmul.mcl", "", {{"n", 100}, {"m", 200}, {"p", 50}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    auto ops = of_kind(r.remarks, RemarkKind::Operations);
    ASSERT_EQ(ops.size(), 1u) << describe(r.remarks);
    // 2 computations (* and +=) in the k loop, one += per output element.
    EXPECT_EQ(Symbols::text(quantity(ops[0], "computations").expr), "2*m*n*p+m*n");
    EXPECT_DOUBLE_EQ(*quantity(ops[0], "computations").value, 2.0 * 100 * 200 * 50 + 100 * 200);
    EXPECT_EQ(Symbols::text(quantity(ops[0], "loads_main").expr), "2*m*n*p+m*n") << "a and b, and c for +=";
    EXPECT_EQ(Symbols::text(quantity(ops[0], "stores_main").expr), "m*n");
    EXPECT_FALSE(ops[0].approximate);
    EXPECT_EQ(ops[0].location.line, 9u);
    auto ai = of_kind(r.remarks, RemarkKind::ArithmeticIntensity);
    ASSERT_EQ(ai.size(), 1u);
    EXPECT_EQ(Symbols::text(quantity(ai[0], "arithmetic_intensity").expr), "(2*p+1)/(2*p+2)");
}

TEST(OperationStatistics, IndexingAndControlFlowAreSeparate) {
    FeedbackResult r = feedback_for(R"(module k;
import perfect;
perfect void k(int n, float[n] b, const float[2*n] a) {
    foreach (int i in n threads) {
        b[i] = a[2*i + 1] * 3.0;
    }
}
)",
                                    "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    const Remark ops = of_kind(r.remarks, RemarkKind::Operations).at(0);
    EXPECT_EQ(Symbols::text(quantity(ops, "computations").expr), "n");
    EXPECT_EQ(Symbols::text(quantity(ops, "indexing").expr), "2*n");
    EXPECT_EQ(Symbols::text(quantity(ops, "control_flow").expr), "0");
}

TEST(OperationStatistics, CalleesAreCountedAtTheCall) {
    FeedbackResult r = feedback_for(R"(module k;
import perfect;
perfect float square(float x) { return x * x; }
perfect void k(int n, float[n] b) {
    foreach (int i in n threads) {
        b[i] = square(b[i]) + 1.0;
    }
}
)",
                                    "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    auto ops = of_kind(r.remarks, RemarkKind::Operations);
    ASSERT_EQ(ops.size(), 2u) << "one per function";
    EXPECT_EQ(Symbols::text(quantity(ops[1], "computations").expr), "2*n");
}

TEST(OperationStatistics, LibraryCallsAreNamedOverLoopsAndCallees) {
    FeedbackResult r = feedback_for(R"(module k;
import perfect;
import lib.math;
perfect float decay(float x) { return exp(-x) + exp(x); }
perfect void k(int n, int m, float[n] b) {
    foreach (int i in n threads) {
        for (int j = 0; j < m; j++) {
            b[i] = b[i] + decay(b[i]) + sqrt(b[i]);
        }
    }
}
)",
                                    "", {{"n", 10}, {"m", 3}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    const Remark ops = of_kind(r.remarks, RemarkKind::Operations).at(1);
    EXPECT_EQ(Symbols::text(quantity(ops, "calls_exp").expr), "2*m*n") << "two per call of decay, merged from it";
    EXPECT_EQ(Symbols::text(quantity(ops, "calls_sqrt").expr), "m*n");
    EXPECT_DOUBLE_EQ(*quantity(ops, "calls_exp").value, 60.0);
    EXPECT_THAT(ops.message,
                HasSubstr("(library calls among them, one instruction each: exp 2*m*n (= 60), sqrt m*n (= 30))"));
    EXPECT_EQ(find_quantity(of_kind(r.remarks, RemarkKind::Operations).at(0), "calls_sqrt"), nullptr)
        << "decay calls no sqrt";
}

TEST(OperationStatistics, ConditionsAndUnknownTripCountsAreApproximate) {
    FeedbackResult r = feedback_for(R"(module k;
import perfect;
perfect void k(int n, float[n] b, const int[n] len) {
    foreach (int i in n threads) {
        for (int j = 0; j < len[i]; j++) {
            b[i] += 1.0;
        }
    }
}
)",
                                    "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    const Remark ops = of_kind(r.remarks, RemarkKind::Operations).at(0);
    EXPECT_TRUE(ops.approximate);
    EXPECT_THAT(ops.message, HasSubstr("approximately"));
}

TEST(OperationStatistics, TranslatedKernelsCountTheSameWork) {
    // The split loops cover at least the original range; with sizes that are
    // multiples of the unit counts the counts agree exactly.
    Params params{{"n", 64}, {"m", 2048}, {"p", 32}};
    FeedbackResult perfect = feedback_for_example("matmul/matmul.mcl", "", params, kPass);
    FeedbackResult gpu = feedback_for_example("matmul/matmul.mcl", "gpu", params, kPass);
    ASSERT_EQ(gpu.diagnostics, "");
    double at_perfect = *quantity(of_kind(perfect.remarks, RemarkKind::Operations).at(0), "computations").value;
    const Remark ops = of_kind(gpu.remarks, RemarkKind::Operations).at(0);
    EXPECT_DOUBLE_EQ(*quantity(ops, "computations").value, at_perfect);
    EXPECT_TRUE(ops.approximate) << "the guard is counted as always taken";
}

}  // namespace
}  // namespace mcl::feedback::testing
