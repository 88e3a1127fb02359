// Scarce on-chip memory and the performance-feedback functions
// ("occupancy": blocks per multiprocessor).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "feedback/ScarceResources.h"
#include "support/Diagnostics.h"
#include "tests/compiler/CompilerTestSupport.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback {
namespace {

using testing::quantity_value;

using ::testing::HasSubstr;
using testing::describe;
using testing::feedback_for;
using testing::feedback_for_example;
using testing::of_kind;

const std::vector<NamedPass> kPass = testing::only_pass("scarce-resources");

// Thesis table 3.2, nvidia row: "Using 1/8 blocks per SMP. Reduce the
// amount of shared memory used by storing/loading shared memory in phases".
TEST(ScarceResources, MatmulBlocksPerMultiprocessorLimitedBySharedMemory) {
    auto r = feedback_for_example("matmul/matmul_gpu_v1.mcl", "hopper", {{"p", 32768}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    auto occ = of_kind(r.remarks, RemarkKind::Occupancy);
    ASSERT_EQ(occ.size(), 1u) << describe(r.remarks);
    EXPECT_THAT(occ[0].message, HasSubstr("sm: 1 of 32 blocks per multiprocessor fit, limited by shared memory "
                                          "(4*p bytes per block)"));
    EXPECT_THAT(occ[0].message, HasSubstr("reduce the memory per block, e.g. by storing and loading it in phases"));
    EXPECT_EQ(quantity_value(occ[0], "blocks_per_multiprocessor"), 1.0);
    EXPECT_EQ(quantity_value(occ[0], "shared_bytes_per_block"), 131072.0);
    EXPECT_EQ(occ[0].location.line, 16u) << "at the function";
}

TEST(ScarceResources, MatmulBlocksPerMultiprocessorNeedsAValue) {
    auto r = feedback_for_example("matmul/matmul_gpu_v1.mcl", "hopper", {}, kPass);
    auto occ = of_kind(r.remarks, RemarkKind::Occupancy);
    ASSERT_EQ(occ.size(), 1u) << describe(r.remarks);
    EXPECT_EQ(occ[0].message, "sm: blocks per multiprocessor: needs a value for p: --param p=...; depends on shared "
                              "memory (4*p bytes per block)");
}

TEST(ScarceResources, MatmulBlocksPerMultiprocessorLimitedByThreads) {
    auto hopper = feedback_for_example("matmul/matmul_gpu_v1.mcl", "hopper", {{"p", 2048}}, kPass);
    auto occ = of_kind(hopper.remarks, RemarkKind::Occupancy);
    ASSERT_EQ(occ.size(), 1u) << describe(hopper.remarks);
    EXPECT_EQ(occ[0].message, "sm: 2 of 32 blocks per multiprocessor fit, limited by warps (32 warps per block) and "
                              "threads (1024 threads per block) (shared memory (4*p bytes per block) allow 28); registers not "
                              "counted (the vendor compiler allocates them)");
    // nvidia: 8 block slots, 1024 thread slots.
    auto nvidia = feedback_for_example("matmul/matmul_gpu_v1.mcl", "nvidia", {{"p", 2048}}, kPass);
    auto occ2 = of_kind(nvidia.remarks, RemarkKind::Occupancy);
    ASSERT_EQ(occ2.size(), 1u) << describe(nvidia.remarks);
    EXPECT_EQ(occ2[0].message, "sm: 1 of 8 blocks per multiprocessor fit, limited by threads (1024 threads per block) "
                               "(shared memory (4*p bytes per block) allow 6); registers not counted (the vendor "
                               "compiler allocates them)");
}

TEST(ScarceResources, SharedMemoryIsDividedAmongTheBlocksOfAnSm) {
    auto r = feedback_for_example("matmul/matmul_gpu_v1.mcl", "hopper", {}, kPass);
    auto sr = of_kind(r.remarks, RemarkKind::ScarceResource);
    ASSERT_EQ(sr.size(), 1u) << describe(r.remarks);
    EXPECT_EQ(sr[0].message, "memory shared_mem (233472 bytes) holds `shared`, which the 32 blocks that sm runs at once "
                             "cannot share: 7296 bytes per block; the kernel declares 4*p bytes per block (l_a); to "
                             "compare, needs a value for p: --param p=...");
    EXPECT_EQ(sr[0].location.line, 25u) << "at the declaration of l_a";

    auto valued = feedback_for_example("matmul/matmul_gpu_v1.mcl", "nvidia", {{"p", 2048}}, kPass);
    auto sr2 = of_kind(valued.remarks, RemarkKind::ScarceResource);
    ASSERT_EQ(sr2.size(), 1u) << describe(valued.remarks);
    EXPECT_THAT(sr2[0].message, HasSubstr("6144 bytes per block; the kernel declares 4*p (= 8192) bytes per block (l_a): "
                                          "more than a block's share, at most 6 of 8 blocks fit"));
    EXPECT_EQ(quantity_value(sr2[0], "declared"), 8192.0);
}

TEST(ScarceResources, LocalMemoryOfGpu) {
    // gpu: one block per processor, 32 kB of on-chip `local`; no
    // performance_feedback("occupancy").
    auto r = feedback_for_example("matmul/matmul_gpu_v1.mcl", "", {{"p", 1024}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    ASSERT_EQ(r.remarks.size(), 1u) << describe(r.remarks);
    EXPECT_THAT(r.remarks[0].message, HasSubstr("memory on_chip (32768 bytes) holds `local`, which the 1 blocks that "
                                                "processor runs at once cannot share: 32768 bytes per block; the kernel "
                                                "declares 4*p (= 4096) bytes per block (l_a): within a block's share"));
}

const char* kSmallBlocks = R"(module m;
import hopper;

hopper void f(int n, global float[n] a) {
    foreach (int bi in n blocks) {
        shared float[256] s;
        shared double[64] s2;
        foreach (int w in 2 warps) {
            foreach (int t in 32 threads) {
                s[t] = a[t];
                s2[t] = 0.0;
            }
        }
    }
}
)";

TEST(ScarceResources, SmallBlocksAreLimitedBySlots) {
    auto r = feedback_for(kSmallBlocks, "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    auto occ = of_kind(r.remarks, RemarkKind::Occupancy);
    ASSERT_EQ(occ.size(), 1u) << describe(r.remarks);
    EXPECT_EQ(occ[0].message, "sm: 32 of 32 blocks per multiprocessor fit, limited by the 32 block slots and warps "
                              "(2 warps per block) and threads (64 threads per block) (shared memory (1536 bytes per "
                              "block) allow 152); registers not counted (the vendor compiler allocates them)");
    EXPECT_FALSE(occ[0].approximate);
    auto sr = of_kind(r.remarks, RemarkKind::ScarceResource);
    ASSERT_EQ(sr.size(), 1u);
    EXPECT_THAT(sr[0].message, HasSubstr("the kernel declares 1536 bytes per block (s, s2): within a block's share"));
}

const char* kRoundedThreads = R"(module m;
import hopper;

hopper void f(int n, global float[n] a) {
    foreach (int bi in 4 blocks) {
        foreach (int w in divide_up(n, 32) warps) {
            foreach (int t in 32 threads) {
                a[t] = 1.0;
            }
        }
    }
}
)";

TEST(ScarceResources, RoundedCountsAreApproximateAndNeedValues) {
    auto missing = feedback_for(kRoundedThreads, "", {}, kPass);
    ASSERT_EQ(missing.diagnostics, "");
    auto occ = of_kind(missing.remarks, RemarkKind::Occupancy);
    ASSERT_EQ(occ.size(), 1u) << describe(missing.remarks);
    EXPECT_THAT(occ[0].message, HasSubstr("sm: blocks per multiprocessor: needs a value for n: --param n=..."));
    EXPECT_TRUE(occ[0].approximate);

    auto valued = feedback_for(kRoundedThreads, "", {{"n", 1024}}, kPass);
    auto occ2 = of_kind(valued.remarks, RemarkKind::Occupancy);
    ASSERT_EQ(occ2.size(), 1u) << describe(valued.remarks);
    EXPECT_THAT(occ2[0].message, HasSubstr("sm: 2 of 32 blocks per multiprocessor fit"));
    EXPECT_TRUE(occ2[0].approximate) << "divide_up(n, 32) is taken as n / 32";
}

TEST(ScarceResources, FeedbackFunctionTable) {
    std::vector<std::string> names;
    for (const NamedFeedbackFunction& f : feedback_functions()) names.push_back(f.name);
    EXPECT_THAT(names, ::testing::IsSupersetOf({"occupancy", "shared_mem_parallelism", "load_store_optimality"}));
}

TEST(ScarceResources, UnknownFeedbackFunctionIsReported) {
    auto c = mcpl::testing::check_text(kSmallBlocks);
    ASSERT_EQ(c.text(), "");
    // A user description `hopper` that overrides the built-in one and names
    // a function nobody registered.
    std::ifstream in(std::string(MCL_STDLIB_HW_DIR) + "/hopper.hdl");
    std::stringstream text;
    text << in.rdbuf();
    std::string hdl = text.str();
    hdl.replace(hdl.find("performance_feedback(\"occupancy\")"), 33, "performance_feedback(\"mystery\")");
    SourceManager sources;
    DiagnosticEngine diags(sources);
    hdl::HardwareLibrary library(sources, diags);
    library.add_directory(MCL_STDLIB_HW_DIR, false);
    library.add_buffer("user/hopper.hdl", hdl, true);
    library.finish();
    ASSERT_FALSE(diags.has_errors());
    const hdl::HardwareModel* model = library.find("hopper");
    ASSERT_NE(model, nullptr);

    const mcpl::Function& f = *c.module()->functions[0];
    Params params;
    Symbols symbols(params);
    std::vector<Access> accesses = collect_accesses(f, symbols);
    FeedbackInput input{c.program, f, *model, accesses, symbols};
    std::vector<Remark> remarks = scarce_resources(input);
    auto occ = of_kind(remarks, RemarkKind::Occupancy);
    ASSERT_EQ(occ.size(), 1u) << describe(remarks);
    EXPECT_EQ(occ[0].message, "unknown performance feedback function 'mystery' (named by hopper.sms in hopper)");
    EXPECT_TRUE(occ[0].warning);
    EXPECT_EQ(sources.path(occ[0].location.file), "user/hopper.hdl") << "located at the description's line";
    size_t line = 1 + static_cast<size_t>(std::count(hdl.begin(), hdl.begin() + hdl.find("\"mystery\""), '\n'));
    EXPECT_EQ(occ[0].location.line, line);
}

}  // namespace
}  // namespace mcl::feedback
