// Proposing faster memories for reused data (thesis 3.6.3, Table 3.2).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/LoadModules.h"
#include "feedback/FasterMemory.h"
#include "feedback/RunFeedback.h"
#include "hdl/HardwareLibrary.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback {
namespace {

using ::testing::HasSubstr;
using testing::describe;
using testing::feedback_for;
using testing::feedback_for_example;

const std::vector<NamedPass> kPass = testing::only_pass("faster-memory");

TEST(FasterMemory, MatmulAtGpuThesisTable32) {
    auto result = feedback_for_example("matmul/matmul.mcl", "gpu", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    ASSERT_EQ(result.remarks.size(), 1u) << describe(result.remarks);
    const Remark& r = result.remarks[0];
    EXPECT_EQ(r.kind, RemarkKind::FasterMemory);
    EXPECT_EQ(r.location.line, 15u);
    EXPECT_EQ(r.message,
              "expression a[i, k] is loaded for each thread t_j (line 12), the same element every time: local "
              "memory can be leveraged: the threads of a block share it, and memory on_chip (local) is faster "
              "than device_mem (dev): latency 4 cycles vs 400 cycles");
    EXPECT_TRUE(r.approximate) << "under the translation's guard";
    ASSERT_EQ(r.quantities.size(), 1u);
    EXPECT_EQ(Symbols::text(r.quantities[0].expr), "1024");
}

TEST(FasterMemory, NoFasterMemoryAtPerfectOrAccelerator) {
    for (const char* level : {"", "accelerator"}) {
        auto result = feedback_for_example("matmul/matmul.mcl", level, {}, kPass);
        ASSERT_EQ(result.diagnostics, "") << level;
        EXPECT_TRUE(result.remarks.empty()) << level << "\n" << describe(result.remarks);
    }
}

TEST(FasterMemory, HandWrittenGpuVersions) {
    // Fig. 3.9: the same proposal for the hand-split kernel.
    auto gpu = feedback_for_example("matmul/matmul_gpu.mcl", "", {}, kPass);
    ASSERT_EQ(gpu.diagnostics, "");
    ASSERT_EQ(gpu.remarks.size(), 1u) << describe(gpu.remarks);
    EXPECT_THAT(gpu.remarks[0].message, HasSubstr("a[i, k] is loaded for each thread tj"));
    // v1 stages a in local memory: nothing left to propose.
    auto v1 = feedback_for_example("matmul/matmul_gpu_v1.mcl", "", {}, kPass);
    ASSERT_EQ(v1.diagnostics, "");
    EXPECT_TRUE(v1.remarks.empty()) << describe(v1.remarks);
}

TEST(FasterMemory, ProximityDecidesWithoutADirectInterconnect) {
    // At nvidia device memory reaches the SMs through the L2 cache only:
    // no latency to compare, shared_mem inside the SM is closer.
    auto result = feedback_for_example("matmul/matmul.mcl", "nvidia", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    ASSERT_EQ(result.remarks.size(), 1u) << describe(result.remarks);
    EXPECT_THAT(result.remarks[0].message, HasSubstr("shared memory can be leveraged"));
    EXPECT_THAT(result.remarks[0].message, HasSubstr("closer to the execution units"));
}

TEST(FasterMemory, OneProposalPerAccessAndSpaceAndNoReadOnlySpaces) {
    // fermi: blocks > warps > threads and a read-only `constant` space. The
    // warps of a block share a[i, k] (threads of a warp too, said once);
    // constant memory is never proposed.
    auto result = feedback_for_example("matmul/matmul.mcl", "fermi", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    ASSERT_EQ(result.remarks.size(), 1u) << describe(result.remarks);
    EXPECT_THAT(result.remarks[0].message, HasSubstr("the warps of a block share it"));
    EXPECT_THAT(describe(result.remarks), ::testing::Not(HasSubstr("constant")));
}

TEST(FasterMemory, ConvolutionReuseRatioAcrossThreads) {
    auto result = feedback_for_example("convolution/convolution.mcl", "gpu", {{"fw", 9}}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    std::string all = describe(result.remarks);
    EXPECT_THAT(all, HasSubstr("expression f[y, x] is loaded for each thread t_j"));
    EXPECT_THAT(all, HasSubstr("expression a[i + y, j + x]: dimension 2 is reused across loops t_j and x "
                               "(data-reuse ratio (1024*fw)/(fw+1024) = 8.92): local memory can be leveraged"));
    // Dimension 1 is shared across blocks only: no space faster than dev.
    EXPECT_THAT(all, ::testing::Not(HasSubstr("dimension 1")));
}

TEST(FasterMemory, ForLoopReuseIsNotShared) {
    auto result = feedback_for(R"(module m;
import gpu;
gpu void f(int n, int p, dev float[n] o, const dev float[n] a) {
    foreach (int b in n blocks) {
        foreach (int t in 1 threads) {
            float s = 0.0;
            for (int k = 0; k < p; k++) {
                s = s + a[b];
            }
            o[b] = s;
        }
    }
}
)", "", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    // a[b] is reused across t (threads share it: local) and k (one thread: none).
    ASSERT_EQ(result.remarks.size(), 1u) << describe(result.remarks);
    EXPECT_THAT(result.remarks[0].message, HasSubstr("for each thread t"));
    EXPECT_FALSE(result.remarks[0].approximate);
}

// A description of our own: blocks of threads, `main` in memory `mem` and
// `near` (per block) in memory `scratch`; ICS is spliced in to decide which
// heuristic tells them apart.
std::string two_memories(const std::string& ics) {
    return R"(hardware_description twomem;
specializes perfect;
parallelism hierarchy {
    memory_space main {
        default;
    }
    par_group blocks {
        max_nr_units = unlimited;
        par_unit block {
            memory_space near {
            }
            par_group threads {
                max_nr_units = 64;
                perfect.hierarchy.threads.thread;
            }
        }
    }
}
device twomem {
    mem;
    scratch;
    cores;
)" + ics + R"(}
memory mem {
    space(main);
    capacity = 1 GB;
}
memory scratch {
    space(near);
    capacity = 64 kB;
}
execution_group cores {
    max_nr_units = unlimited;
    execution_unit core {
        slots(block, 1);
        lanes;
    }
}
execution_group lanes {
    nr_units = 64;
    execution_unit lane {
        slots(thread, 1);
        regs;
    }
}
memory regs {
    space(reg);
    addressable = false;
}
)";
}

std::string feedback_with(const std::string& hdl, std::string& diagnostics) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    hdl::HardwareLibrary library(sources, diags);
    library.add_directory(MCL_STDLIB_HW_DIR, false);
    library.add_buffer("twomem.hdl", hdl, true);
    library.finish();
    mcpl::Program program = mcpl::load_modules_from_text("t.mcl", R"(module m;
import twomem;
twomem void f(int n, main float[n] o, const main float[n] a) {
    foreach (int b in n blocks) {
        foreach (int t in 64 threads) {
            o[b] = a[b];
        }
    }
}
)", {}, sources, library, diags);
    mcpl::check_program(program, library, diags);
    std::ostringstream out;
    diags.print_text(out);
    diagnostics = out.str();
    if (diags.has_errors()) return "";
    std::vector<Remark> remarks;
    for (const auto& module : program.modules)
        for (Remark& r : run_feedback(program, *module, library, {}, kPass)) remarks.push_back(std::move(r));
    return describe(remarks);
}

TEST(FasterMemory, HeuristicsInOrder) {
    std::string diagnostics;
    // Nothing but capacities: the smaller memory is taken to be faster.
    std::string capacity = feedback_with(two_memories(""), diagnostics);
    ASSERT_EQ(diagnostics, "");
    EXPECT_THAT(capacity, HasSubstr("a[b] is loaded for each thread t (line 5), the same element every time: near "
                                    "memory can be leveraged: the threads of a block share it, and memory scratch "
                                    "(near) is faster than mem (main): capacity 65536 B vs 1073741824 B"));
    // Equal latencies: the bandwidth decides, before capacity.
    std::string bandwidth = feedback_with(two_memories(R"(    mem_ic;
    scratch_ic;
)") + R"(interconnect mem_ic {
    connects(mem, cores.core[*]);
    latency = 10 cycles;
    bandwidth = 100 GB/s;
}
interconnect scratch_ic {
    connects(scratch, cores.core[*]);
    latency = 10 cycles;
    bandwidth = 10 GB/s;
}
)", diagnostics);
    ASSERT_EQ(diagnostics, "");
    EXPECT_EQ(bandwidth, "") << "mem has the wider interconnect";
    // The latency decides first.
    std::string latency = feedback_with(two_memories(R"(    mem_ic;
    scratch_ic;
)") + R"(interconnect mem_ic {
    connects(mem, cores.core[*]);
    latency = 100 cycles;
    bandwidth = 100 GB/s;
}
interconnect scratch_ic {
    connects(scratch, cores.core[*]);
    latency = 2 cycles;
    bandwidth = 10 GB/s;
}
)", diagnostics);
    ASSERT_EQ(diagnostics, "");
    EXPECT_THAT(latency, HasSubstr("latency 2 cycles vs 100 cycles"));
}

}  // namespace
}  // namespace mcl::feedback
