// Coalescing and bank conflicts for lock-step units.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "feedback/MemoryAccessRules.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback {
namespace {

using testing::quantity_value;

using ::testing::HasSubstr;
using testing::describe;
using testing::feedback_for;
using testing::feedback_for_example;
using testing::of_kind;

const std::vector<NamedPass> kPass = testing::only_pass("memory-access-rules");

// The remark at the access named `what` (as printed), or an empty one.
Remark at(const std::vector<Remark>& remarks, const std::string& what) {
    for (const Remark& r : remarks)
        if (r.message.rfind("`" + what + "`", 0) == 0) return r;
    return {};
}

const char* kStrides = R"(module m;
import hopper;

hopper void f(int n, int m, global float[n] a, global float[n] b, global float[n] c, global float[n] d, global double[n] e, global float[n] g, const global int[n] idx) {
    foreach (int bi in n blocks) {
        shared float[2048] s;
        foreach (int w in 1 warps) {
            foreach (int t in 32 threads) {
                a[t] = 1.0;
                b[t * 2] = 1.0;
                c[t * 32] = 1.0;
                d[bi] = 1.0;
                e[t] = 1.0;
                g[t * m] = 1.0;
                a[idx[t]] = 2.0;
                s[t] = 1.0;
                s[t * 2] = 1.0;
                s[t * 3] = 1.0;
                s[t * 32] = 1.0;
                s[0] = 1.0;
            }
        }
    }
}
)";

TEST(MemoryAccessRules, CoalescingAtHopper) {
    auto r = feedback_for(kStrides, "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    auto co = of_kind(r.remarks, RemarkKind::Coalescing);
    std::string all = describe(r.remarks);

    Remark a = at(co, "a[t]");
    EXPECT_THAT(a.message, HasSubstr("coalesced: the 32 threads of a lock-step group access consecutive 4-byte elements "
                                     "(1 memory transaction of 128 bytes)")) << all;
    EXPECT_FALSE(a.approximate);
    EXPECT_EQ(quantity_value(a, "transactions"), 1.0);

    Remark b = at(co, "b[t * 2]");
    EXPECT_THAT(b.message, HasSubstr("not coalesced: consecutive threads (`t`) are 8 bytes apart: 2 memory "
                                     "transactions of 128 bytes per lock-step group of 32 threads instead of 1")) << all;
    EXPECT_EQ(quantity_value(b, "transactions"), 2.0);

    Remark c = at(co, "c[t * 32]");
    EXPECT_THAT(c.message, HasSubstr("128 bytes apart: 32 memory transactions")) << all;
    EXPECT_EQ(quantity_value(c, "transactions"), 32.0);

    EXPECT_THAT(at(co, "d[bi]").message, HasSubstr("broadcast: the 32 threads of a lock-step group read the same element"))
        << all;
    // 8-byte elements: coalesced is 2 transactions of 128 bytes.
    EXPECT_THAT(at(co, "e[t]").message, HasSubstr("coalesced: the 32 threads of a lock-step group access consecutive "
                                                  "8-byte elements (2 memory transactions of 128 bytes)")) << all;
}

TEST(MemoryAccessRules, SymbolicStrideNeedsAValue) {
    auto r = feedback_for(kStrides, "", {}, kPass);
    Remark g = at(of_kind(r.remarks, RemarkKind::Coalescing), "g[t * m]");
    EXPECT_THAT(g.message, HasSubstr("are 4*m bytes apart: 32 memory transactions")) << describe(r.remarks);
    EXPECT_THAT(g.message, HasSubstr("assuming |4*m| >= 128; needs a value for m: --param m=..."));
    EXPECT_TRUE(g.approximate);

    auto valued = feedback_for(kStrides, "", {{"m", 1}}, kPass);
    Remark g1 = at(of_kind(valued.remarks, RemarkKind::Coalescing), "g[t * m]");
    EXPECT_THAT(g1.message, HasSubstr("coalesced: the 32 threads")) << describe(valued.remarks);
    EXPECT_FALSE(g1.approximate);
}

TEST(MemoryAccessRules, UnpredictableIndex) {
    auto r = feedback_for(kStrides, "", {}, kPass);
    Remark x = at(of_kind(r.remarks, RemarkKind::Coalescing), "a[idx[t]]");
    EXPECT_THAT(x.message, HasSubstr("coalescing unknown: its index idx[t] is unpredictable: it reads an array"))
        << describe(r.remarks);
    EXPECT_TRUE(x.approximate);
}

TEST(MemoryAccessRules, BankConflictsInSharedMemory) {
    auto r = feedback_for(kStrides, "", {}, kPass);
    auto banks = of_kind(r.remarks, RemarkKind::BankConflicts);
    std::string all = describe(r.remarks);
    ASSERT_EQ(banks.size(), 5u) << all;
    EXPECT_THAT(at(banks, "s[t]").message, HasSubstr("no bank conflicts: the 32 threads of a lock-step group use "
                                                     "distinct banks (stride 1 word, 32 banks)")) << all;
    EXPECT_THAT(at(banks, "s[t * 2]").message, HasSubstr("2-way bank conflicts")) << all;
    EXPECT_EQ(quantity_value(at(banks, "s[t * 2]"), "conflict_degree"), 2.0);
    EXPECT_THAT(at(banks, "s[t * 3]").message, HasSubstr("no bank conflicts")) << all;
    EXPECT_THAT(at(banks, "s[t * 32]").message, HasSubstr("32-way bank conflicts")) << all;
    EXPECT_THAT(at(banks, "s[0]").message, HasSubstr("broadcast")) << all;
    // Shared memory gets no coalescing remark.
    EXPECT_EQ(at(of_kind(r.remarks, RemarkKind::Coalescing), "s[t]").message, "");
}

TEST(MemoryAccessRules, FermiLoadStoreUnitsOfTwoSlotsMakeWarpsOf32) {
    std::string text = kStrides;
    text.replace(text.find("import hopper;"), 14, "import fermi;");
    text.replace(text.find("hopper void"), 6, "fermi");
    auto r = feedback_for(text, "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    EXPECT_THAT(at(of_kind(r.remarks, RemarkKind::Coalescing), "b[t * 2]").message,
                HasSubstr("2 memory transactions of 128 bytes per lock-step group of 32 threads"))
        << describe(r.remarks);
}

// Thesis 3.5.1, fermi: "the memory access patterns of a, b, and c are
// optimal, and there are no bank conflicts in the access of shared memory".
TEST(MemoryAccessRules, MatmulLocalVersionIsOptimalAtFermiAndHopper) {
    for (const char* level : {"fermi", "hopper"}) {
        auto r = feedback_for_example("matmul/matmul_gpu_v1.mcl", level, {}, kPass);
        ASSERT_EQ(r.diagnostics, "") << level;
        std::string all = describe(r.remarks);
        auto co = of_kind(r.remarks, RemarkKind::Coalescing);
        ASSERT_EQ(co.size(), 3u) << all;
        for (const char* what : {"a[i, kl]", "b[k, j]", "c[i, j]"})
            EXPECT_THAT(at(co, what).message, HasSubstr("coalesced: the 32 threads")) << level << "\n" << all;
        auto banks = of_kind(r.remarks, RemarkKind::BankConflicts);
        ASSERT_EQ(banks.size(), 2u) << all;
        for (const Remark& b : banks) EXPECT_THAT(b.message, HasSubstr("no bank conflicts")) << all;
    }
}

const char* kDivides = R"(module m;
import hopper;

hopper void f(int n, int m, global float[n] a) {
    foreach (int bi in n blocks) {
        foreach (int w in 1 warps) {
            foreach (int t in 32 threads) {
                a[t / m] = 1.0;
                a[t / (m - m)] = 1.0;
            }
        }
    }
}
)";

TEST(MemoryAccessRules, DivisionsAreFloorDivisionAndNeverCrash) {
    auto r = feedback_for(kDivides, "", {{"m", 2}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    std::string all = describe(r.remarks);
    Remark half = at(r.remarks, "a[t / m]");
    // t / 2: pairs of threads read one element, 16 elements in one line.
    EXPECT_THAT(half.message, HasSubstr("coalesced: the 32 threads of a lock-step group access 1 memory transaction"))
        << all;
    EXPECT_FALSE(half.approximate) << "integer division is floor division, counted lane by lane";
    // Without a value for m the lanes cannot be counted: unknown, needs m.
    auto symbolic = feedback_for(kDivides, "", {}, kPass);
    EXPECT_THAT(at(symbolic.remarks, "a[t / m]").message, HasSubstr("needs a value for m"))
        << describe(symbolic.remarks);
    // check refuses a constant zero divisor; one that is zero only
    // symbolically reaches the analysis.
    EXPECT_THAT(at(r.remarks, "a[t / (m - m)]").message, HasSubstr("it divides by zero")) << all;
    // A value that makes a division by zero stops the analysis with a remark.
    auto zero = feedback_for(kDivides, "", {{"m", 0}}, kPass);
    ASSERT_FALSE(zero.remarks.empty());
}

TEST(MemoryAccessRules, NothingWithoutLoadStoreOptimality) {
    auto r = feedback_for_example("matmul/matmul.mcl", "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    EXPECT_TRUE(r.remarks.empty()) << describe(r.remarks);
}

}  // namespace
}  // namespace mcl::feedback
