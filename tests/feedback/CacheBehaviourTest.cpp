// Cache behaviour: strides per loop, best and worst case cache-line fetches.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "feedback/CacheBehaviour.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback {
namespace {

using testing::quantity_value;

using ::testing::HasSubstr;
using ::testing::Not;
using testing::describe;
using testing::feedback_for;
using testing::feedback_for_example;

const std::vector<NamedPass> kPass = testing::only_pass("cache-behaviour");

// The remark on `what` in loop `loop` for `cache`, or an empty one.
Remark at(const std::vector<Remark>& remarks, const std::string& what, const std::string& loop,
          const std::string& cache) {
    for (const Remark& r : remarks)
        if (r.message.rfind("`" + what + "` in loop `" + loop + "`", 0) == 0 &&
            r.message.find("from cache " + cache + ",") != std::string::npos)
            return r;
    return {};
}

const char* kLoops = R"(module m;
import hopper;

hopper void f(int n, int m, global float[n] out, const global float[n] a, const global float[n] b, const global float[n] c, const global float[n] d, const global int[n] idx) {
    foreach (int bi in 2 blocks) {
        foreach (int w in 1 warps) {
            foreach (int t in 32 threads) {
                float x = 0.0;
                for (int k = 0; k < n; k++) {
                    x += a[k * 32];
                    x += b[k];
                    x += c[t];
                    x += d[k * m];
                    x += a[idx[k]];
                }
                out[t] = x;
            }
        }
    }
}
)";

TEST(CacheBehaviour, StrideOfALineOrMoreDoesNotBenefit) {
    auto r = feedback_for(kLoops, "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    std::string all = describe(r.remarks);
    Remark x = at(r.remarks, "a[k * 32]", "k", "l1_cache");
    EXPECT_THAT(x.message, HasSubstr("(line 9) does not benefit from cache l1_cache, best case: n cache-line fetches, "
                                     "worst case: n (stride 128 bytes, 128-byte lines)")) << all;
    EXPECT_FALSE(x.approximate);
    // The L2 has 32-byte lines: also one line per iteration.
    EXPECT_THAT(at(r.remarks, "a[k * 32]", "k", "l2_cache").message, HasSubstr("does not benefit")) << all;
}

TEST(CacheBehaviour, SmallStrideMayBenefit) {
    auto r = feedback_for(kLoops, "", {{"n", 4096}}, kPass);
    std::string all = describe(r.remarks);
    Remark x = at(r.remarks, "b[k]", "k", "l1_cache");
    EXPECT_THAT(x.message, HasSubstr("may benefit from cache l1_cache, best case: 128 cache-line fetches, "
                                     "worst case: n (= 4096) (stride 4 bytes, 128-byte lines)")) << all;
    EXPECT_EQ(quantity_value(x, "best_case_fetches"), 128.0);
    EXPECT_EQ(quantity_value(x, "worst_case_fetches"), 4096.0);
    // Without a value the best case stays symbolic.
    auto symbolic = feedback_for(kLoops, "", {}, kPass);
    EXPECT_THAT(at(symbolic.remarks, "b[k]", "k", "l1_cache").message, HasSubstr("best case: n/32 cache-line fetches"))
        << describe(symbolic.remarks);
}

TEST(CacheBehaviour, StrideZeroInASequentialLoopMayBenefit) {
    auto r = feedback_for(kLoops, "", {}, kPass);
    EXPECT_THAT(at(r.remarks, "c[t]", "k", "l1_cache").message,
                HasSubstr("may benefit from cache l1_cache, best case: 1 cache-line fetch, worst case: n (stride 0 bytes"))
        << describe(r.remarks);
}

TEST(CacheBehaviour, LockStepThreadsShareLines) {
    auto r = feedback_for(kLoops, "", {}, kPass);
    std::string all = describe(r.remarks);
    Remark x = at(r.remarks, "c[t]", "t", "l1_cache");
    EXPECT_THAT(x.message, HasSubstr("does benefit from cache l1_cache, best case: 1 cache-line fetch, worst case: 1 "
                                     "(stride 4 bytes, 128-byte lines; the 32 threads of a lock-step group that read "
                                     "one line count once)")) << all;
    // 32-byte lines of the L2: the 32 threads read 128 bytes, 4 lines.
    EXPECT_THAT(at(r.remarks, "c[t]", "t", "l2_cache").message, HasSubstr("best case: 4 cache-line fetches, worst case: 4"))
        << all;
}

TEST(CacheBehaviour, ForeachIsBoundedByTheUnitsThatReachTheCache) {
    // out[t] does not depend on bi: 2 blocks, both fit on an sm (32 slots).
    auto r = feedback_for(kLoops, "", {}, kPass);
    EXPECT_THAT(at(r.remarks, "out[t]", "bi", "l1_cache").message,
                HasSubstr("may benefit from cache l1_cache, best case: 1 cache-line fetch, worst case: 2"))
        << describe(r.remarks);
}

TEST(CacheBehaviour, SymbolicStrideIsAssumedALineAndNamed) {
    auto r = feedback_for(kLoops, "", {}, kPass);
    Remark x = at(r.remarks, "d[k * m]", "k", "l1_cache");
    EXPECT_THAT(x.message, HasSubstr("does not benefit from cache l1_cache, best case: n cache-line fetches"))
        << describe(r.remarks);
    EXPECT_THAT(x.message, HasSubstr("stride 4*m bytes, 128-byte lines; assuming |4*m| >= 128"));
    EXPECT_TRUE(x.approximate);

    auto valued = feedback_for(kLoops, "", {{"m", 2}, {"n", 1024}}, kPass);
    Remark y = at(valued.remarks, "d[k * m]", "k", "l1_cache");
    EXPECT_THAT(y.message, HasSubstr("may benefit from cache l1_cache, best case: 64 cache-line fetches"))
        << describe(valued.remarks);
    EXPECT_FALSE(y.approximate);
}

TEST(CacheBehaviour, UnpredictableIndexIsReported) {
    auto r = feedback_for(kLoops, "", {}, kPass);
    bool found = false;
    for (const Remark& x : r.remarks)
        if (x.message.rfind("`a[idx[k]]`: cache behaviour for cache l1_cache unknown: its index idx[k] is "
                            "unpredictable: it reads an array", 0) == 0) {
            found = true;
            EXPECT_TRUE(x.approximate);
        }
    EXPECT_TRUE(found) << describe(r.remarks);
}

TEST(CacheBehaviour, GuardedAccessIsApproximate) {
    // matmul_gpu_v1 computes under `if (j < m)`.
    auto r = feedback_for_example("matmul/matmul_gpu_v1.mcl", "hopper", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    EXPECT_TRUE(at(r.remarks, "b[k, j]", "k", "l1_cache").approximate);
}

// Thesis table 3.2, fermi row: "b[k,j] in loop bi does not benefit from
// cache, best case: 256 cache-line fetches". Our matmul (gpu v1) translated
// to fermi has b[k, j] in loops bi, bj, w_tj, t_tj and k: consecutive k are
// a row of b apart (4*m bytes), so in loop k it does not benefit and needs p
// fetches; across the blocks bj of an sm (8 on fermi) it needs 8, one per
// block; the lock-step threads of a warp share one 128-byte line.
TEST(CacheBehaviour, ThesisMatmulAtFermi) {
    auto r = feedback_for_example("matmul/matmul_gpu_v1.mcl", "fermi", {{"p", 2048}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    std::string all = describe(r.remarks);
    EXPECT_THAT(at(r.remarks, "b[k, j]", "k", "l1_cache").message,
                HasSubstr("does not benefit from cache l1_cache, best case: p (= 2048) cache-line fetches")) << all;
    EXPECT_THAT(at(r.remarks, "b[k, j]", "bj", "l1_cache").message,
                HasSubstr("does not benefit from cache l1_cache, best case: 8 cache-line fetches, worst case: 8 "
                          "(stride 4096 bytes, 128-byte lines; at most 8 blocks reach the cache at once)")) << all;
    EXPECT_THAT(at(r.remarks, "b[k, j]", "t_tj", "l1_cache").message,
                HasSubstr("does benefit from cache l1_cache, best case: 1 cache-line fetch, worst case: 1")) << all;
    // 15 SMs of 8 blocks share the L2.
    EXPECT_THAT(at(r.remarks, "b[k, j]", "bj", "l2_cache").message, HasSubstr("best case: 120 cache-line fetches"))
        << all;
}

TEST(CacheBehaviour, ThesisMatmulAtHopper) {
    auto r = feedback_for_example("matmul/matmul_gpu_v1.mcl", "hopper", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    std::string all = describe(r.remarks);
    EXPECT_THAT(at(r.remarks, "b[k, j]", "k", "l1_cache").message,
                HasSubstr("(line 42) does not benefit from cache l1_cache, best case: p cache-line fetches, worst case: p"))
        << all;
    EXPECT_THAT(at(r.remarks, "b[k, j]", "bj", "l1_cache").message,
                HasSubstr("best case: 32 cache-line fetches, worst case: 32")) << all;
    EXPECT_THAT(at(r.remarks, "b[k, j]", "bj", "l2_cache").message,
                HasSubstr("at most 4224 blocks reach the cache at once")) << all;
    // l_a is in shared memory, which no cache holds.
    for (const Remark& x : r.remarks) EXPECT_THAT(x.message, Not(HasSubstr("l_a"))) << all;
}

// Thesis table 3.3, xeon_phi row: "b[k,j] in loop k does not benefit from
// cache, p cache-line fetches"; a cache-only architecture.
TEST(CacheBehaviour, ThesisMatmulAtXeonPhiIsCacheOnly) {
    auto r = feedback_for_example("matmul/matmul.mcl", "xeon_phi", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    std::string all = describe(r.remarks);
    ASSERT_FALSE(r.remarks.empty());
    EXPECT_THAT(r.remarks.front().message,
                HasSubstr("xeon_phi has no on-chip memory other than its caches: make each access benefit from the cache"))
        << all;
    Remark x = at(r.remarks, "b[k, j]", "k", "l1_cache");
    EXPECT_THAT(x.message, HasSubstr("does not benefit from cache l1_cache, best case: p cache-line fetches, worst case: p "
                                     "(stride 4*m bytes, 64-byte lines; assuming |4*m| >= 64)")) << all;
    EXPECT_THAT(x.message, HasSubstr("xeon_phi keeps data on chip only in caches: make this access benefit from the cache"));
    // Vector lanes of a core run in lock step: 16 lanes, 64-byte lines.
    EXPECT_THAT(at(r.remarks, "b[k, j]", "v_j", "l1_cache").message, HasSubstr("does benefit")) << all;
}

TEST(CacheBehaviour, NoCachesNoRemarks) {
    auto r = feedback_for_example("matmul/matmul_gpu_v1.mcl", "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    EXPECT_TRUE(r.remarks.empty()) << describe(r.remarks);
}

}  // namespace
}  // namespace mcl::feedback
