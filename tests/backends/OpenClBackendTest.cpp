// The opencl backend and the grid mapping it shares with CUDA: launches per
// top-level foreach, hardware dimensions per slot (linearised beyond three),
// guards for loops that share a slot, __local arrays, scratch arrays in
// device memory, barriers, and the located errors. That the code computes the right thing is shown end to
// end on PoCL (run_end_to_end.sh, run_opencl_errors.sh).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/backends/BackendTestSupport.h"

namespace mcl::backends::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Generated generate_opencl(const std::string& text) { return generate(text, "hopper", "opencl"); }

TEST(OpenClBackend, FilesAndInterfaces) {
    Generated g = generate_opencl(R"(module va;
export va;
import hopper;
hopper void va(int n, float[n] c, const float[n] a) {
    foreach (int b in n blocks) {
        foreach (int w in 1 warps) {
            foreach (int t in 32 threads) {
                if (t == 0) { c[b] = a[b] * 2.0; }
            }
        }
    }
}
)");
    ASSERT_EQ(g.files.size(), 5u) << g.diagnostics();
    EXPECT_EQ(g.files[1].name, "va.cl");
    std::string h = g.file("va.h"), cl = g.file("va.cl"), glue = g.file("va.cpp");
    EXPECT_THAT(h, HasSubstr("void va(int n, float* c, const float* a);"));
    EXPECT_THAT(h, HasSubstr("void va(int n, mcl::opencl::DeviceArray<float>& c, "
                             "const mcl::opencl::DeviceArray<float>& a);"));
    // What a launch does not use is marked so, for -Wall -Wextra.
    EXPECT_THAT(cl, HasSubstr("__kernel void va_0(__attribute__((unused)) int n, __global float* restrict c, "
                              "__global const float* restrict a, __attribute__((unused)) const int mcl_groups_0, "
                              "__attribute__((unused)) const int mcl_items_0, "
                              "__attribute__((unused)) const int mcl_items_1)"));
    EXPECT_THAT(cl, HasSubstr("const int b = ((int)get_group_id(0));"));
    EXPECT_THAT(cl, HasSubstr("const int w = ((int)get_local_id(1));"));
    EXPECT_THAT(cl, HasSubstr("const int t = ((int)get_local_id(0));"));
    // The kernel source is embedded in the glue; thread 0 of block b
    // writes c[b], every element, so c is not copied in.
    EXPECT_THAT(glue, HasSubstr("R\"mcl_cl_source("));
    EXPECT_THAT(glue, HasSubstr("c_device(mcl_device, (size_t)((n)), nullptr)"));
    EXPECT_THAT(glue, HasSubstr("a_device(mcl_device, (size_t)((n)), a)"));
    EXPECT_THAT(glue, HasSubstr("c_device.download(c);"));
    EXPECT_THAT(glue, Not(HasSubstr("a_device.download")));
    EXPECT_THAT(glue, HasSubstr("Device::for_type(\"gpu\")"));
}

TEST(OpenClBackend, MoreLoopsThanDimensionsAreLinearised) {
    Generated g = generate_opencl(R"(module lin;
import hopper;
hopper void k(int a, int b, int c, int d, float[a, b, c, d] x) {
    foreach (int i in a blocks) { foreach (int j in b blocks) { foreach (int l in c blocks) {
        foreach (int m in d blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
            if (t == 0) { x[i, j, l, m] = 1.0; }
        } } }
    } } }
}
)");
    std::string cl = g.file("lin.cl"), glue = g.file("lin.cpp");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, HasSubstr("const int i = (((int)get_group_id(2)) / (mcl_groups_1));"));
    EXPECT_THAT(cl, HasSubstr("const int j = (((int)get_group_id(2)) % mcl_groups_1);"));
    EXPECT_THAT(cl, HasSubstr("const int l = ((int)get_group_id(1));"));
    EXPECT_THAT(cl, HasSubstr("const int m = ((int)get_group_id(0));"));
    EXPECT_THAT(glue, HasSubstr("mcl_group_count_0[3] = {(size_t)(mcl_groups_3), (size_t)(mcl_groups_2), "
                                "(size_t)(mcl_groups_0 * mcl_groups_1)}"));
}

// The slot is as large as the larger constant count: only the smaller
// loop is guarded.
TEST(OpenClBackend, LoopsSharingASlotAreGuarded) {
    Generated g = generate_opencl(R"(module sib;
import hopper;
hopper void k(int n, float[n, 64] x) {
    foreach (int b in n blocks) {
        foreach (int w in 2 warps) { foreach (int t in 32 threads) { x[b, w * 32 + t] = 1.0; } }
        foreach (int w2 in 1 warps) { foreach (int t2 in 32 threads) { x[b, t2] += 1.0; } }
    }
}
)");
    std::string cl = g.file("sib.cl"), glue = g.file("sib.cpp");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, Not(HasSubstr("if (w < 2)")));
    EXPECT_THAT(cl, HasSubstr("if (w2 < 1)"));
    EXPECT_THAT(cl, Not(HasSubstr("if (t < 32)")));  // equal constant counts share a slot exactly
    EXPECT_THAT(glue, HasSubstr("mcl_items_0 = std::max<long long>({(long long)(2), (long long)(1), 0LL});"));
}

// Counts that are the same value make the slot exactly as large as each:
// the same parameter, or scalars declared with the same value of it.
TEST(OpenClBackend, LoopsOfTheSameCountShareASlotUnguarded) {
    auto siblings = [](const std::string& third_count) {
        return generate_opencl(R"(module same;
import hopper;
hopper void k(int n, int w, float[n, 64] x) {
    foreach (int b in n blocks) {
        const int warps = divide_up(w, 32);
        const int warps2 = divide_up(w, 32);
        foreach (int v in warps warps) { foreach (int t in 32 threads) { x[b, (v * 32 + t) % 64] = 1.0; } }
        foreach (int v2 in warps2 warps) { foreach (int t2 in 32 threads) { x[b, t2] += 1.0; } }
        foreach (int v3 in )" + third_count + R"( warps) { foreach (int t3 in 32 threads) { x[b, t3] += 2.0; } }
    }
}
)");
    };
    Generated equal = siblings("divide_up(w, 32)");
    std::string cl = equal.file("same.cl");
    ASSERT_FALSE(cl.empty()) << equal.diagnostics();
    EXPECT_THAT(cl, Not(HasSubstr("if (v < warps)")));
    EXPECT_THAT(cl, Not(HasSubstr("if (v2 < warps2)")));
    EXPECT_THAT(cl, Not(HasSubstr("if (v3 < ")));
    Generated larger = siblings("divide_up(w, 32) + 1");
    cl = larger.file("same.cl");
    ASSERT_FALSE(cl.empty()) << larger.diagnostics();
    EXPECT_THAT(cl, HasSubstr("if (v < warps)"));
    EXPECT_THAT(cl, HasSubstr("if (v2 < warps2)"));
}

TEST(OpenClBackend, GuardOfALoopWhoseIndexHidesItsCount) {
    // The guard sits where the index hides the parameter `m`.
    Generated g = generate_opencl(R"(module hid;
import hopper;
hopper void k(int n, int m, float[n, 64] x) {
    foreach (int b in n blocks) {
        foreach (int w in 2 warps) { foreach (int t in 32 threads) { x[b, w * 32 + t] = 1.0; } }
        foreach (int m in m warps) { foreach (int t2 in 32 threads) { x[b, t2] += 1.0; } }
    }
}
)");
    std::string cl = g.file("hid.cl");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, HasSubstr("            const int mcl_count_m = m;\n"
                              "            __attribute__((unused)) const int m = ((int)get_local_id(1));\n"
                              "            if (m < mcl_count_m) {\n"));
}

TEST(OpenClBackend, BarrierOverMemoryOfAllGroupsIsAnError) {
    // `global` is shared by all blocks; barrier(CLK_GLOBAL_MEM_FENCE) would
    // wait for the items of one work-group only.
    Generated g = generate_opencl(R"(module gb;
import hopper;
hopper void k(int n, float[n, 32] x, float[n, 32] y) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        y[b, t] = x[b, t];
        barrier(global);
        x[b, t] = y[(b + 1) % n, t];
    } } }
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("6:9: error: barrier(global) would synchronise every unit of 'blocks' "
                                           "at 'hopper', and 'hopper' cannot do that inside one launch"));
}

TEST(OpenClBackend, BarrierInACalledFunctionIsCheckedWhereItIsCalled) {
    Generated g = generate_opencl(R"(module gc;
import hopper;
hopper void wait_all() { barrier(global); }
hopper void k(int n, float[n, 32] x, float[n, 32] y) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        y[b, t] = x[b, t];
        wait_all();
        x[b, t] = y[(b + 1) % n, t];
    } } }
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("3:26: error: barrier(global) would synchronise every unit of 'blocks' "
                                           "at 'hopper'"));
    EXPECT_THAT(g.diagnostics(), HasSubstr("7:9: note: reached through this call of 'wait_all'"));
}

// The second nest's warp shares its dimension with the first's 2 warps:
// the work-items past its count skip its statements but still reach its
// barrier; a barrier in a function it calls cannot be reached that way.
TEST(OpenClBackend, GuardGoesPastTheBarriersOfAShorterLoop) {
    Generated g = generate_opencl(R"(module bar;
import hopper;
hopper void k(int n, float[n, 64] x) {
    foreach (int b in n blocks) {
        foreach (int w in 2 warps) { foreach (int t in 32 threads) { x[b, w * 32 + t] = 1.0; } }
        foreach (int w2 in 1 warps) { foreach (int t2 in 32 threads) {
            x[b, t2] += 1.0;
            barrier(shared);
        } }
    }
}
)");
    std::string cl = g.file("bar.cl");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, HasSubstr("            const bool mcl_runs_w2 = w2 < 1;\n"
                              "            {\n"
                              "                const int t2 = ((int)get_local_id(0));\n"
                              "                if (mcl_runs_w2) {\n"
                              "                    x[(long)(b) * (64) + (t2)] += 1.0f;\n"
                              "                }\n"
                              "                barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"));

    Generated call = generate_opencl(R"(module bar;
import hopper;
hopper void wait_block() { barrier(shared); }
hopper void k(int n, float[n, 64] x) {
    foreach (int b in n blocks) {
        foreach (int w in 2 warps) { foreach (int t in 32 threads) { x[b, w * 32 + t] = 1.0; } }
        foreach (int w2 in 1 warps) { foreach (int t2 in 32 threads) { wait_block(); } }
    }
}
)");
    EXPECT_TRUE(call.files.empty());
    EXPECT_THAT(call.diagnostics(),
                HasSubstr("7:72: error: the opencl backend cannot keep every item of the group at the barriers of "
                          "the foreach on line 7: this statement calls a function that reaches a barrier; the items "
                          "of the group past the count of 'w2' (a longer loop shares its hardware dimension) must "
                          "skip the call but still reach the barrier"));
}

// At hopper's warp level the default memory is global; a scalar declared
// there is each work-item's own variable (OpenCL C has no `__global`
// variables at function scope).
TEST(OpenClBackend, ScalarOfGlobalMemoryInAWarpLoopIsTheWorkItemsOwn) {
    Generated g = generate_opencl(R"(module warp;
import hopper;
hopper void k(int n, float[n, 64] x, float[n, 16] y) {
    foreach (int b in n blocks) {
        foreach (int w in 1 warps) {
            int base = 0;
            base = 16;
            foreach (int t in 16 threads) { y[b, t] = x[b, base + t]; }
        }
    }
}
)");
    std::string cl = g.file("warp.cl");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, HasSubstr("            int base = 0;\n"));
    EXPECT_THAT(cl, Not(HasSubstr("__global int base")));
}

// Between a block's phases the work-items wait on both memories they
// share (GroupPhases; CudaBackendTest has the placement).
TEST(OpenClBackend, WorkItemsSynchroniseBetweenPhasesOnLocalAndGlobalMemory) {
    Generated g = generate_opencl(R"(module ph;
import hopper;
hopper void k(int n, float[n, 32] x, float[n, 32] y) {
    foreach (int b in n blocks) {
        foreach (int w in 1 warps) { foreach (int t in 32 threads) { y[b, t] = x[b, t]; } }
        foreach (int w2 in 1 warps) { foreach (int t2 in 32 threads) { x[b, t2] = y[b, 31 - t2]; } }
    }
}
)");
    std::string cl = g.file("ph.cl");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, HasSubstr("        }\n        barrier(CLK_GLOBAL_MEM_FENCE);\n        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
                              "        {\n            __attribute__((unused)) const int w2 = "));
}

TEST(OpenClBackend, SharedArraysAndBarriers) {
    Generated g = generate_opencl(R"(module sh;
import hopper;
hopper void k(int n, int p, float[n, 32] x) {
    foreach (int b in n blocks) {
        shared float[32] fixed;
        shared float[p] dynamic;
        foreach (int w in 1 warps) { foreach (int t in 32 threads) {
            fixed[t] = x[b, t];
            if (t < p) { dynamic[t] = 2.0; }
            barrier(shared);
            x[b, t] = fixed[31 - t];
        } }
    }
}
)");
    std::string cl = g.file("sh.cl"), glue = g.file("sh.cpp");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, HasSubstr("__local float* restrict dynamic) {\n    __local float fixed[32];"));
    EXPECT_THAT(cl, HasSubstr("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);"));
    EXPECT_THAT(glue, HasSubstr("cl::Local(sizeof(float) * std::max<size_t>(1, (size_t)((p))))"));
}

TEST(OpenClBackend, EachTopLevelForeachIsALaunch) {
    Generated g = generate_opencl(kTwoLaunchesKernel);
    std::string cl = g.file("two.cl"), glue = g.file("two.cpp");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, HasSubstr("__kernel void k_0("));
    EXPECT_THAT(cl, HasSubstr("__kernel void k_1("));
    // The host computes halfN once; no kernel reads it, so none takes it.
    EXPECT_THAT(glue, HasSubstr("int halfN = (int)((long long)n > 0 ? ((long long)n + 2 - 1) / 2 : (long long)n / 2);"));
    EXPECT_THAT(cl, Not(HasSubstr("halfN")));
    EXPECT_THAT(glue, HasSubstr("\"k_1\""));
}

TEST(OpenClBackend, StatementsOutsideForeachAreErrors) {
    Generated g = generate_opencl(R"(module out;
export k;
import hopper;
hopper void k(int n, float[n] x) {
    x[0] = 1.0;
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("5:5: error: the opencl backend runs a kernel as launches of its "
                                           "top-level foreach loops"));
}

// A call outside the foreach loops would run device code on the host, a
// kernel's own launches included: refused, saying so.
TEST(OpenClBackend, CallsOutsideForeachAreErrors) {
    Generated g = generate_opencl(R"(module calls;
export twice;
import hopper;
hopper void fill(int n, float[n] x) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int i in 32 threads) {
        if (i == 0) { x[b] = 1.0; } } } }
}
hopper void twice(int n, float[n] x) {
    fill(n, x);
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("9:5: error: the opencl backend cannot call 'fill' outside the foreach "
                                           "loops: a kernel's statements there run on the host"));
}

// A time loop around launches runs on the host, which passes the scalars
// it computes per step to the launches that use them.
TEST(OpenClBackend, HostLoopsAroundLaunches) {
    Generated g = generate_opencl(R"(module steps;
import hopper;
hopper void k(int n, int steps, float[n] x) {
    int done = 0;
    for (int t = 0; t < steps; t++) {
        const int shift = t * 2;
        if (t % 2 == 0) {
            foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int i in 32 threads) {
                if (i == 0) { x[b] += toFloat(shift); } } } }
        }
        done += 1;
    }
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int i in 32 threads) {
        if (i == 0) { x[b] += toFloat(done); } } } }
}
)");
    std::string cl = g.file("steps.cl"), glue = g.file("steps.cpp");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(glue, HasSubstr("        [[maybe_unused]] int done = 0;\n"
                                "        for (int t = 0; t < steps; t++) {\n"
                                "            [[maybe_unused]] int shift = t * 2;\n"
                                "            if ((t % 2) == 0) {\n"
                                "                {  // launch 0: the foreach at line 8\n"));
    EXPECT_THAT(glue, HasSubstr("            done += 1;\n        }\n        {  // launch 1: the foreach at line 13\n"));
    EXPECT_THAT(glue, HasSubstr("mcl_kernel.setArg(mcl_arg++, shift);"));
    EXPECT_THAT(glue, HasSubstr("mcl_kernel.setArg(mcl_arg++, done);"));
    EXPECT_THAT(cl, HasSubstr("const int mcl_items_1, const int shift) {"));
    EXPECT_THAT(cl, HasSubstr("const int mcl_items_1, const int done) {"));
}

TEST(OpenClBackend, HostStatementsThatNeedTheDeviceAreErrors) {
    Generated g = generate_opencl(R"(module steps;
import hopper;
hopper void k(int n, float[n] x) {
    for (int t = 0; t < x[0]; t++) {
        foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int i in 32 threads) {
            x[b] = 1.0; } } }
    }
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("4:5: error: the opencl backend runs a kernel as launches of its "
                                           "top-level foreach loops; statements outside them run on the host"));
}

// Arrays the kernel writes only in part are copied in, so that what it does
// not write comes back as it was; those it writes in every element are not.
TEST(OpenClBackend, PartlyWrittenArraysAreCopiedIn) {
    Generated g = generate(R"(module part;
import perfect;
perfect void k(int n, float[n] whole, float[n] interior) {
    foreach (int i in n threads) { whole[i] = 1.0; }
    foreach (int i in n - 2 threads) { interior[i + 1] = 1.0; }
}
)", "hopper", "opencl");
    std::string glue = g.file("part.cpp");
    ASSERT_FALSE(glue.empty()) << g.diagnostics();
    EXPECT_THAT(glue, HasSubstr("DeviceArray<float> whole_device(mcl_device, (size_t)((n)), nullptr);"));
    EXPECT_THAT(glue, HasSubstr("DeviceArray<float> interior_device(mcl_device, (size_t)((n)), interior);"));
}

TEST(OpenClBackend, RecursionIsAnErrorAtTheCall) {
    Generated g = generate_opencl(R"(module rec;
import hopper;
hopper int even(int k) { if (k == 0) { return 1; } return odd(k - 1); }
hopper int odd(int k) { if (k == 0) { return 0; } return even(k - 1); }
hopper void k(int n, int[n] x) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int i in 32 threads) {
        if (i == 0) { x[b] = even(b); } } } }
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("4:58: error: this call of 'even' is recursive (it reaches itself "
                                           "again): the opencl backend cannot express recursion"));
    EXPECT_THAT(g.diagnostics(), Not(HasSubstr("3:")));
}

// Arrays in device memory declared inside the kernel: the host allocates
// one for the kernel and one part per block, the thread's own is private.
TEST(OpenClBackend, ScratchArraysInDeviceMemory) {
    Generated g = generate_opencl(kScratchArraysKernel);
    std::string k = g.file("scr.cl"), glue = g.file("scr.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("const int mcl_items_1, __global float* restrict copy, "
                             "__global float* restrict mcl_scratch_0_row) {"));
    EXPECT_THAT(k, HasSubstr("__global float* const row = mcl_scratch_0_row + (size_t)((int)get_group_id(0)) * "
                             "(size_t)((32));"));
    EXPECT_THAT(k, HasSubstr("        float mine[2];\n"));
    EXPECT_THAT(k, HasSubstr("const int mcl_items_1, __global float* restrict copy) {"));
    EXPECT_THAT(glue, HasSubstr("mcl::opencl::DeviceArray<float> mcl_scratch_copy(mcl_device, (size_t)((long long)(n) * (32)));"));
    EXPECT_THAT(k, HasSubstr("copy[(long)(b) * (32) + (t)] = row[(t)];"));
    EXPECT_THAT(glue, HasSubstr("mcl::opencl::DeviceArray<float> mcl_scratch_0_row(mcl_device, (size_t)mcl_groups_0 * "
                                "(size_t)((32)));"));
    EXPECT_THAT(glue, HasSubstr("mcl_kernel.setArg(mcl_arg++, mcl_scratch_copy.buffer());"));
    EXPECT_THAT(glue, HasSubstr("mcl_kernel.setArg(mcl_arg++, mcl_scratch_0_row.buffer());"));
}

// A top-level scratch array declared between launches: the host allocates
// it there, and only the launches after it take it.
TEST(OpenClBackend, ScratchArraysDeclaredBetweenLaunches) {
    Generated g = generate_opencl(R"(module mid;
import hopper;
hopper void k(int n, float[n] x) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int i in 32 threads) {
        if (i == 0) { x[b] = 1.0; } } } }
    global float[n] copy;
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int i in 32 threads) {
        if (i == 0) { copy[b] = x[b] + 1.0; } } } }
}
)");
    std::string cl = g.file("mid.cl"), glue = g.file("mid.cpp");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, HasSubstr("const int mcl_items_1) {\n"));
    EXPECT_THAT(cl, HasSubstr("const int mcl_items_1, __global float* restrict copy) {\n"));
    EXPECT_THAT(glue, HasSubstr("        }\n        mcl::opencl::DeviceArray<float> mcl_scratch_copy(mcl_device, "
                                "(size_t)((n)));\n        {  // launch 1"));
}

// A block's part of a scratch array: instances numbered over the group
// loops around the declaration, row-major.
TEST(OpenClBackend, ScratchArraysUnderNestedGroupLoops) {
    Generated g = generate_opencl(R"(module nest;
import hopper;
hopper void k(int n, int m, float[n, m, 32] x) {
    foreach (int i in n blocks) { foreach (int j in m blocks) {
        global float[32] part;
        foreach (int w in 1 warps) { foreach (int t in 32 threads) { part[t] = x[i, j, t]; x[i, j, t] = part[t]; } }
    } }
}
)");
    std::string k = g.file("nest.cl"), glue = g.file("nest.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("__global float* const part = mcl_scratch_0_part + ((size_t)((int)get_group_id(1)) * "
                             "(size_t)mcl_groups_1 + (size_t)((int)get_group_id(0))) * (size_t)((32));"));
    EXPECT_THAT(glue, HasSubstr("DeviceArray<float> mcl_scratch_0_part(mcl_device, (size_t)mcl_groups_0 * "
                                "(size_t)mcl_groups_1 * (size_t)((32)));"));
}

// Scratch arrays of one name in sibling blocks of a launch get storage of
// their own.
TEST(OpenClBackend, ScratchArraysOfOneNameInSiblingBlocks) {
    Generated g = generate_opencl(R"(module sib;
import hopper;
hopper void k(int n, float[n, 32] x) {
    foreach (int b in n blocks) {
        {
            global float[32] tmp;
            foreach (int w in 1 warps) { foreach (int t in 32 threads) { tmp[t] = x[b, t]; x[b, t] = tmp[t]; } }
        }
        {
            global float[32] tmp;
            foreach (int w in 1 warps) { foreach (int t in 32 threads) { tmp[t] = 2.0 * x[b, t]; x[b, t] = tmp[t]; } }
        }
    }
}
)");
    std::string k = g.file("sib.cl");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("__global float* restrict mcl_scratch_0_tmp, __global float* restrict mcl_scratch_1_tmp) {"));
    EXPECT_THAT(k, HasSubstr("__global float* const tmp = mcl_scratch_0_tmp + "));
    EXPECT_THAT(k, HasSubstr("__global float* const tmp = mcl_scratch_1_tmp + "));
}

TEST(OpenClBackend, ScratchArraySizesMustBeKnownOnTheHost) {
    Generated g = generate_opencl(R"(module len;
import hopper;
hopper void k(int n, const int[n] lens, float[n, 32] x) {
    foreach (int b in n blocks) {
        const int len = lens[b];
        global float[len] tmp;
        foreach (int w in 1 warps) { foreach (int t in 32 threads) { tmp[0] = x[b, t]; x[b, t] = tmp[0]; } }
    }
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("6:22: error: the opencl backend allocates arrays in device memory that a "
                                           "kernel declares on the host: their sizes must be computable there"));
}

// Inside item loops an array in device memory is private: its size must be
// a constant.
TEST(OpenClBackend, PrivateArraysOfNonConstantSizeAreErrors) {
    Generated g = generate_opencl(R"(module dyn;
import hopper;
hopper void k(int n, float[n, 32] x) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        global float[n] tmp;
        tmp[0] = x[b, t];
        x[b, t] = tmp[0];
    } } }
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("5:9: error: arrays in device memory whose size is not constant, declared "
                                           "inside item loops or in functions called from a kernel are not supported "
                                           "by the opencl backend"));
}

// A written scalar parameter is a pointer into its argument's address
// space: a function called with a global element and with a private
// variable is printed once for each, as for arrays.
TEST(OpenClBackend, WrittenScalarsOfDeviceFunctionsPointIntoTheSpaceOfTheirArguments) {
    Generated g = generate_opencl(R"(module dev;
import hopper;
hopper void twice(float r) { r = r * 2.0; }
hopper void k(int n, float[n] x) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        float mine = x[b];
        if (t == 0) { twice(x[b]); twice(mine); x[b] = x[b] + mine; } } } }
}
)");
    std::string cl = g.file("dev.cl");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, HasSubstr("void twice(__global float* r) {"));
    EXPECT_THAT(cl, HasSubstr("void mcl_as_p_twice(float* r) {"));
    EXPECT_THAT(cl, HasSubstr("twice(&x[(b)]);\n"));
    EXPECT_THAT(cl, HasSubstr("mcl_as_p_twice(&mine);\n"));
}

// OpenCL C 1.2 pointers carry their address space: a device function that
// calls pass a global, a local and a private array is printed once for each
// (the first keeps its name), and so is what it calls.
TEST(OpenClBackend, DeviceFunctionsArePrintedPerAddressSpaceOfTheirArrays) {
    Generated g = generate_opencl(R"(module spaces;
import hopper;
hopper float first(const int len, const float[len] a) { return a[0]; }
hopper float viaFirst(const int len, const float[len] a) { return first(len, a); }
hopper void k(int n, float[n] x, const float[n] y) {
    foreach (int b in n blocks) {
        shared float[32] tile;
        foreach (int w in 1 warps) { foreach (int t in 32 threads) {
            float[2] p;
            p[0] = 1.0;
            p[1] = 2.0;
            tile[t] = y[b];
            barrier(shared);
            p as float[2] view;
            x[b] = viaFirst(n, y) + viaFirst(32, tile) + viaFirst(2, p) + view[1];
        } }
    }
}
)");
    std::string cl = g.file("spaces.cl");
    ASSERT_FALSE(cl.empty()) << g.diagnostics();
    EXPECT_THAT(cl, HasSubstr("float viaFirst(int len, __global const float* a) {\n    return first(len, a);"));
    EXPECT_THAT(cl, HasSubstr("float mcl_as_l_viaFirst(int len, __local const float* a) {\n"
                              "    return mcl_as_l_first(len, a);"));
    EXPECT_THAT(cl, HasSubstr("float mcl_as_p_viaFirst(int len, const float* a) {\n"
                              "    return mcl_as_p_first(len, a);"));
    EXPECT_THAT(cl, HasSubstr("float first(int len, __global const float* a)"));
    EXPECT_THAT(cl, HasSubstr("float mcl_as_l_first(int len, __local const float* a)"));
    EXPECT_THAT(cl, HasSubstr("float mcl_as_p_first(int len, const float* a)"));
    EXPECT_THAT(cl, HasSubstr("viaFirst(n, y) + mcl_as_l_viaFirst(32, tile)) + mcl_as_p_viaFirst(2, p)"));
    EXPECT_THAT(cl, HasSubstr("float* view = p;"));
}

}  // namespace
}  // namespace mcl::backends::testing
