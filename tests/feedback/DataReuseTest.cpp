// Data reuse (thesis 3.6.3): the simple form (an access that does not
// depend on a loop index) and the advanced form (reuse ratio per dimension).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "feedback/DataReuse.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback {
namespace {

using testing::find_quantity;
using testing::same_expression;

using ::testing::HasSubstr;
using testing::describe;
using testing::feedback_for;
using testing::feedback_for_example;

const std::vector<NamedPass> kPass = testing::only_pass("data-reuse");

std::vector<const Remark*> mentioning(const std::vector<Remark>& remarks, const std::string& text) {
    std::vector<const Remark*> out;
    for (const Remark& r : remarks)
        if (r.message.find(text) != std::string::npos) out.push_back(&r);
    return out;
}

TEST(DataReuse, MatmulAtPerfectThesis363) {
    auto result = feedback_for_example("matmul/matmul.mcl", "", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    ASSERT_EQ(result.remarks.size(), 2u) << describe(result.remarks);
    const Remark& a = result.remarks[0];
    EXPECT_EQ(a.kind, RemarkKind::DataReuse);
    EXPECT_EQ(a.message, "a[i, k] does not depend on loop index j (line 12): it is read m times for the same element");
    EXPECT_EQ(a.location.line, 15u);
    EXPECT_FALSE(a.approximate);
    ASSERT_NE(find_quantity(a, "reuse"), nullptr);
    EXPECT_EQ(Symbols::text(find_quantity(a, "reuse")->expr), "m");
    EXPECT_EQ(result.remarks[1].message,
              "b[k, j] does not depend on loop index i (line 11): it is read n times for the same element");
}

TEST(DataReuse, ExampleValuesInTheMessage) {
    auto result = feedback_for_example("matmul/matmul.mcl", "", {{"m", 2048}}, kPass);
    ASSERT_EQ(result.remarks.size(), 2u) << describe(result.remarks);
    EXPECT_THAT(result.remarks[0].message, HasSubstr("read m = 2048 times"));
    EXPECT_DOUBLE_EQ(*find_quantity(result.remarks[0], "reuse")->value, 2048.0);
}

TEST(DataReuse, ConvolutionFirstDimensionRatio) {
    auto result = feedback_for_example("convolution/convolution.mcl", "", {{"h", 2048}, {"fh", 9}}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    auto first = mentioning(result.remarks, "dimension 1 (i + y)");
    ASSERT_EQ(first.size(), 1u) << describe(result.remarks);
    const NamedQuantity* reuse = find_quantity(*first[0], "reuse");
    ASSERT_NE(reuse, nullptr);
    EXPECT_TRUE(same_expression(reuse->expr, "(h*fh)/(h+fh)")) << reuse->expr;
    ASSERT_TRUE(reuse->value);
    EXPECT_NEAR(*reuse->value, 2048.0 * 9 / 2057, 1e-9);
    EXPECT_THAT(first[0]->message, HasSubstr("data-reuse ratio (fh*h)/(fh+h) = 8.96"));
    EXPECT_TRUE(same_expression(find_quantity(*first[0], "accesses")->expr, "h*fh"));
    EXPECT_TRUE(same_expression(find_quantity(*first[0], "range")->expr, "h+fh"));

    // The second dimension has no values: symbolic, still reported.
    auto second = mentioning(result.remarks, "dimension 2 (j + x)");
    ASSERT_EQ(second.size(), 1u) << describe(result.remarks);
    EXPECT_FALSE(find_quantity(*second[0], "reuse")->value);
    EXPECT_THAT(second[0]->message, HasSubstr("(fw*w)/(fw+w)"));

    auto overall = mentioning(result.remarks, "over all dimensions");
    ASSERT_EQ(overall.size(), 1u) << describe(result.remarks);
    EXPECT_THAT(overall[0]->message, HasSubstr("(fh+h)*(fw+w)"));
    EXPECT_TRUE(same_expression(find_quantity(*overall[0], "reuse")->expr, "(h*w*fh*fw)/((h+fh)*(w+fw))"));

    // f[y, x] does not depend on i nor j.
    EXPECT_EQ(mentioning(result.remarks, "f[y, x] does not depend on loop index").size(), 2u);
}

TEST(DataReuse, ConvolutionAtGpuKeepsTheRatio) {
    auto result = feedback_for_example("convolution/convolution.mcl", "gpu", {{"h", 2048}, {"fh", 9}}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    auto first = mentioning(result.remarks, "dimension 1 (i + y)");
    ASSERT_EQ(first.size(), 1u) << describe(result.remarks);
    EXPECT_THAT(first[0]->message, HasSubstr("= 8.96"));
    EXPECT_TRUE(first[0]->approximate) << "under the translation's guard";
}

TEST(DataReuse, MatmulAtGpuFollowsTheIndexStatement) {
    // j = b_j * nrThreads_j + t_j: b[k, j] depends on b_j and t_j.
    auto result = feedback_for_example("matmul/matmul.mcl", "gpu", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    ASSERT_EQ(result.remarks.size(), 3u) << describe(result.remarks);
    EXPECT_THAT(result.remarks[0].message, HasSubstr("a[i, k] does not depend on loop index b_j"));
    EXPECT_THAT(result.remarks[1].message, HasSubstr("a[i, k] does not depend on loop index t_j"));
    EXPECT_THAT(result.remarks[1].message, HasSubstr("read 1024 times"));
    EXPECT_THAT(result.remarks[2].message, HasSubstr("b[k, j] does not depend on loop index i"));
    for (const Remark& r : result.remarks) EXPECT_TRUE(r.approximate) << "under `if (j < m)`: " << r.message;
    // c[i, j] uses every loop and gains nothing: m / (m + 1024) is below one.
    EXPECT_TRUE(mentioning(result.remarks, "c[i, j]").empty());
}

TEST(DataReuse, LocalsAreFollowedThroughTheirInitialisersAndAssignments) {
    auto result = feedback_for(R"(module m;
import perfect;
perfect void f(int n, int m, float[n, m] o, const float[2 * n] a, const float[m] b) {
    foreach (int i in n threads) {
        foreach (int j in m threads) {
            int r = i;
            const int q = r * 2;
            float s = a[q];
            int k2 = 0;
            for (int k = 0; k < m; k++) {
                k2 = k2 + 1;
                s = s + b[k2 - 1];
            }
            o[i, j] = s;
        }
    }
}
)", "", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    auto a = mentioning(result.remarks, "a[q]");
    ASSERT_EQ(a.size(), 1u) << describe(result.remarks);
    EXPECT_THAT(a[0]->message, HasSubstr("does not depend on loop index j")) << "q = r * 2 = i * 2";
    // k2 is assigned in the k loop (declared outside it): b[k2 - 1] depends
    // on k, and on neither i nor j.
    auto b = mentioning(result.remarks, "b[k2 - 1]");
    ASSERT_EQ(b.size(), 2u) << describe(result.remarks);
    EXPECT_THAT(b[0]->message, HasSubstr("loop index i"));
    EXPECT_THAT(b[1]->message, HasSubstr("loop index j"));
}

TEST(DataReuse, ConditionsAndUnknownCountsAreApproximate) {
    auto result = feedback_for(R"(module m;
import perfect;
perfect void f(int n, int m, float[n, m] o, const float[n] a, const int[n] len) {
    foreach (int i in n threads) {
        foreach (int j in m threads) {
            float s = 0.0;
            if (j > 2) {
                s = a[i];
            }
            for (int k = 0; k < len[i]; k++) {
                s = s + a[i];
            }
            o[i, j] = s;
        }
    }
}
)", "", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    auto across_j = mentioning(result.remarks, "(line 5)");
    ASSERT_EQ(across_j.size(), 3u) << describe(result.remarks);
    EXPECT_TRUE(across_j[0]->approximate) << "a[i] under an if";
    EXPECT_THAT(across_j[1]->message, HasSubstr("len[i]"));
    EXPECT_FALSE(across_j[1]->approximate) << "the loop's bound is read before the loop";
    auto unknown = mentioning(result.remarks, "does not depend on loop index k");
    ASSERT_EQ(unknown.size(), 1u) << describe(result.remarks);
    EXPECT_TRUE(unknown[0]->approximate);
    EXPECT_THAT(unknown[0]->message, HasSubstr("number of iterations is unknown"));
    EXPECT_EQ(find_quantity(*unknown[0], "reuse"), nullptr);
}

TEST(DataReuse, LocalArraysCountOnlyTheLoopsInsideTheirDeclaration) {
    auto result = feedback_for_example("matmul/matmul_gpu_v1.mcl", "", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    auto local = mentioning(result.remarks, "l_a[k]");
    ASSERT_EQ(local.size(), 1u) << describe(result.remarks);
    EXPECT_THAT(local[0]->message, HasSubstr("does not depend on loop index tj"));
    EXPECT_TRUE(mentioning(result.remarks, "l_a[k] does not depend on loop index bj").empty());
}

TEST(DataReuse, NoReuseNoRemark) {
    auto result = feedback_for(R"(module m;
import perfect;
perfect void f(int n, float[n] o, const float[2 * n] a) {
    foreach (int i in n threads) {
        o[i] = a[2 * i] + a[i];
    }
}
)", "", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    EXPECT_TRUE(result.remarks.empty()) << describe(result.remarks);
}

TEST(DataReuse, RatioWithStepsAndCoefficients) {
    auto result = feedback_for(R"(module m;
import perfect;
perfect void f(int n, int p, float[n] o, const float[2 * n + p] a) {
    foreach (int i in n threads) {
        float s = 0.0;
        for (int k = 0; k < p; k += 2) {
            s = s + a[2 * i + k];
        }
        o[i] = s;
    }
}
)", "", {{"n", 100}, {"p", 10}}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    ASSERT_EQ(result.remarks.size(), 1u) << describe(result.remarks);
    // accesses n * p/2, range 2*n + 2*(p/2) = 2n + p
    const NamedQuantity* reuse = find_quantity(result.remarks[0], "reuse");
    ASSERT_NE(reuse, nullptr);
    EXPECT_TRUE(same_expression(reuse->expr, "(n*p/2)/(2*n+p)")) << reuse->expr;
    EXPECT_NEAR(*reuse->value, 500.0 / 210.0, 1e-12);
    EXPECT_TRUE(result.remarks[0].approximate) << "p/2 iterations: one more when p is odd";
}

TEST(DataReuse, SharedAnalysisRatioHelpers) {
    Loop outer, inner;
    GiNaC::symbol h("h"), fh("fh");
    outer.iterations = GiNaC::ex(h);
    inner.iterations = GiNaC::ex(fh);
    std::optional<ReuseRatio> r = reuse_ratio({{&outer, 1}, {&inner, 1}});
    ASSERT_TRUE(r);
    EXPECT_TRUE((r->ratio - h * fh / (h + fh)).normal().is_zero());
    Params none;
    Symbols symbols(none);
    EXPECT_TRUE(may_exceed_one(symbols, *r)) << "h*fh - h - fh may be positive";
    std::optional<ReuseRatio> tiled = reuse_ratio({{&outer, 1024}, {&inner, 1}});
    ASSERT_TRUE(tiled);
    outer.iterations = GiNaC::ex(h / 1024);
    tiled = reuse_ratio({{&outer, 1024}, {&inner, 1}});
    inner.iterations = GiNaC::ex(1024);
    tiled = reuse_ratio({{&outer, 1024}, {&inner, 1}});
    EXPECT_FALSE(may_exceed_one(symbols, *tiled)) << "h / (h + 1024) never exceeds one";
    EXPECT_FALSE(reuse_ratio({}));
}

}  // namespace
}  // namespace mcl::feedback

namespace mcl::feedback {
namespace {

TEST(DataReuse, ForIndicesDependOnTheirBounds) {
    // spmv: e runs from rowptr[r]: vals[e] depends on r.
    auto result = testing::feedback_for_example("spmv/spmv.mcl", "", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    EXPECT_TRUE(result.remarks.empty()) << testing::describe(result.remarks);
    // A triangular loop: no reuse ratio from counts that move with i.
    auto triangular = testing::feedback_for(R"(module m;
import perfect;
perfect void f(int n, float[n] o, const float[2 * n] a) {
    foreach (int i in n threads) {
        float s = 0.0;
        for (int k = i; k < n; k++) {
            s = s + a[i + k];
        }
        o[i] = s;
    }
}
)", "", {}, kPass);
    ASSERT_EQ(triangular.diagnostics, "");
    EXPECT_TRUE(triangular.remarks.empty()) << testing::describe(triangular.remarks);
}

}  // namespace
}  // namespace mcl::feedback
