// The cuda backend: files and interfaces, one __global__ kernel per launch,
// shared arrays (all carved out of extern __shared__ memory, with the glue
// opting in beyond 48 KB), __syncthreads barriers, __restrict__ pointers
// and the glue's launch-limit check. The grid mapping itself is shared with
// OpenCL (OpenClBackendTest.cpp); that the code compiles warning-free with
// nvcc is shown end to end (run_end_to_end.sh).
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/backends/BackendTestSupport.h"

namespace mcl::backends::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Generated generate_cuda(const std::string& text, const std::string& leaf = "hopper") {
    return testing::generate(text, leaf, "cuda");
}

TEST(CudaBackend, FilesAndInterfaces) {
    Generated g = generate_cuda(R"(module va;
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
    EXPECT_EQ(g.files[0].name, "va.h");
    EXPECT_EQ(g.files[1].name, "va_kernels.cuh");
    EXPECT_EQ(g.files[2].name, "va.cu");
    EXPECT_EQ(g.files[3].name, "mcl_runtime.h");
    EXPECT_EQ(g.files[4].name, "mcl_cuda.h");
    std::string h = g.file("va.h"), k = g.file("va_kernels.cuh"), glue = g.file("va.cu");
    EXPECT_THAT(h, HasSubstr("#include \"mcl_cuda.h\""));
    EXPECT_THAT(h, HasSubstr("void va(int n, float* c, const float* a);"));
    EXPECT_THAT(h, HasSubstr("mcl::cuda::Device& device();"));
    EXPECT_THAT(h, HasSubstr("void va(int n, mcl::cuda::DeviceArray<float>& c, "
                             "const mcl::cuda::DeviceArray<float>& a);"));
    EXPECT_THAT(k, HasSubstr("namespace va::kernels {"));
    EXPECT_THAT(k, HasSubstr("__global__ void __launch_bounds__(32) va_0(int n, float* __restrict__ c, const float* __restrict__ a, "
                             "const int mcl_groups_0, const int mcl_items_0, const int mcl_items_1)"));
    EXPECT_THAT(k, HasSubstr("const int b = ((int)blockIdx.x);"));
    EXPECT_THAT(k, HasSubstr("const int w = ((int)threadIdx.y);"));
    EXPECT_THAT(k, HasSubstr("const int t = ((int)threadIdx.x);"));
    EXPECT_THAT(glue, HasSubstr("#include \"va_kernels.cuh\""));
    // Thread 0 of block b writes c[b]: every element, so c is not copied in.
    EXPECT_THAT(glue, HasSubstr("c_device(mcl_device, (size_t)((n)), nullptr)"));
    EXPECT_THAT(glue, HasSubstr("a_device(mcl_device, (size_t)((n)), a)"));
    EXPECT_THAT(glue, HasSubstr("c_device.download(c);"));
    EXPECT_THAT(glue, Not(HasSubstr("a_device.download")));
    EXPECT_THAT(glue, HasSubstr("kernels::va_0<<<dim3("));
    EXPECT_THAT(glue, HasSubstr(">>>(n, c.data(), a.data(), (int)mcl_groups_0, (int)mcl_items_0, "
                                "(int)mcl_items_1);"));
    EXPECT_THAT(glue, HasSubstr("mcl::cuda::check(cudaGetLastError(), \"launching va_0\");"));
    EXPECT_THAT(glue, HasSubstr("mcl::cuda::check(cudaDeviceSynchronize(), \"running va\");"));
    EXPECT_THAT(glue, HasSubstr("throw mcl::error_in(\"va::va (cuda backend)\", e);"));
}

TEST(CudaBackend, GlueChecksLaunchLimitsBeforeLaunching) {
    Generated g = generate_cuda(R"(module lim;
import fermi;
fermi void k(int n, int m, float[n, m] x) {
    foreach (int i in n blocks) { foreach (int j in m blocks) { foreach (int w in 1 warps) {
        foreach (int t in 32 threads) { if (t == 0) { x[i, j] = 1.0; } }
    } } }
}
)", "fermi");
    std::string glue = g.file("lim.cu"), runtime = g.file("mcl_cuda.h");
    ASSERT_FALSE(glue.empty()) << g.diagnostics();
    size_t check = glue.find("mcl_device.check_launch(mcl_group_count_0, mcl_group_size_0, mcl_shared_bytes_0);");
    ASSERT_NE(check, std::string::npos) << glue;
    EXPECT_LT(check, glue.find("kernels::k_0<<<"));
    EXPECT_THAT(runtime, HasSubstr("properties_.maxGridSize[d]"));
    EXPECT_THAT(runtime, HasSubstr("properties_.maxThreadsPerBlock"));
    EXPECT_THAT(runtime, HasSubstr("\"no CUDA device: \""));
}

TEST(CudaBackend, SharedArraysAndBarriers) {
    Generated g = generate_cuda(R"(module sh;
import hopper;
hopper void k(int n, int p, int q, float[n, 32] x) {
    foreach (int b in n blocks) {
        shared float[32] fixed;
        shared float[p] dynamic;
        shared int[q] counts;
        foreach (int w in 1 warps) { foreach (int t in 32 threads) {
            fixed[t] = x[b, t];
            if (t < p) { dynamic[t] = 2.0; }
            if (t < q) { counts[t] = t; }
            barrier(shared);
            x[b, t] = fixed[31 - t];
        } }
    }
}
)");
    std::string k = g.file("sh_kernels.cuh"), glue = g.file("sh.cu");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("const size_t mcl_shared_offset_0, const size_t mcl_shared_offset_1, "
                             "const size_t mcl_shared_offset_2) {\n"
                             "    extern __shared__ __align__(16) unsigned char mcl_shared[];\n"
                             "    float* const fixed = static_cast<float*>(__builtin_assume_aligned(mcl_shared + mcl_shared_offset_0, 16));\n"
                             "    float* const dynamic = static_cast<float*>(__builtin_assume_aligned(mcl_shared + mcl_shared_offset_1, 16));\n"
                             "    int* const counts = static_cast<int*>(__builtin_assume_aligned(mcl_shared + mcl_shared_offset_2, 16));\n"));
    EXPECT_THAT(k, Not(HasSubstr("__shared__ float")));
    EXPECT_THAT(k, HasSubstr("__syncthreads();"));
    EXPECT_THAT(k, Not(HasSubstr("__threadfence")));
    EXPECT_THAT(glue, HasSubstr("const size_t mcl_shared_offset_0 = mcl_shared_bytes_0;\n"
                                "            mcl_shared_bytes_0 += (sizeof(float) * std::max<size_t>(1, "
                                "(size_t)(32)) + 15) / 16 * 16;\n"
                                "            const size_t mcl_shared_offset_1 = mcl_shared_bytes_0;\n"
                                "            mcl_shared_bytes_0 += (sizeof(float) * std::max<size_t>(1, "
                                "(size_t)((p))) + 15) / 16 * 16;\n"
                                "            const size_t mcl_shared_offset_2 = mcl_shared_bytes_0;\n"
                                "            mcl_shared_bytes_0 += (sizeof(int) * std::max<size_t>(1, "
                                "(size_t)((q))) + 15) / 16 * 16;\n"));
    EXPECT_THAT(glue, HasSubstr("mcl_device.allow_dynamic_shared(kernels::k_0, mcl_shared_bytes_0, \"k_0\");\n"));
    EXPECT_THAT(glue, HasSubstr("                    mcl_shared_bytes_0>>>("));
    EXPECT_THAT(glue, HasSubstr("mcl_shared_offset_0, mcl_shared_offset_1, mcl_shared_offset_2);"));
}

// A block's 64 KB of shared memory: more than static __shared__ arrays may
// take, so it is dynamic and the glue opts in (Hopper allows 227 KB).
TEST(CudaBackend, SharedMemoryBeyondTheStaticLimit) {
    Generated g = generate_cuda(R"(module big;
import hopper;
hopper void k(int n, float[n, 16384] x) {
    foreach (int b in n blocks) {
        shared float[16384] s;
        foreach (int w in 32 warps) { foreach (int t in 32 threads) {
            for (int e = w * 32 + t; e < 16384; e += 1024) { s[e] = x[b, e]; }
            barrier(shared);
            for (int e = w * 32 + t; e < 16384; e += 1024) { x[b, e] = s[16383 - e]; }
        } }
    }
}
)");
    std::string k = g.file("big_kernels.cuh"), glue = g.file("big.cu");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("float* const s = static_cast<float*>(__builtin_assume_aligned(mcl_shared + mcl_shared_offset_0, 16));"));
    EXPECT_THAT(glue, HasSubstr("(size_t)(16384)) + 15) / 16 * 16;"));
    EXPECT_THAT(glue, HasSubstr("mcl_device.allow_dynamic_shared(kernels::k_0, mcl_shared_bytes_0, \"k_0\");"));
}

// Arrays in device memory declared inside the kernel, allocated by the glue
// (OpenClBackendTest.cpp shows the numbering of the parts).
TEST(CudaBackend, ScratchArraysInDeviceMemory) {
    Generated g = generate_cuda(kScratchArraysKernel);
    std::string k = g.file("scr_kernels.cuh"), glue = g.file("scr.cu");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("float* __restrict__ copy, float* __restrict__ mcl_scratch_0_row) {"));
    EXPECT_THAT(k, HasSubstr("        float mine[2];\n"));
    EXPECT_THAT(k, HasSubstr("float* const row = mcl_scratch_0_row + (size_t)((int)blockIdx.x) * (size_t)((32));"));
    EXPECT_THAT(glue, HasSubstr("mcl::cuda::DeviceArray<float> mcl_scratch_copy(mcl_device, (size_t)((long long)(n) * (32)));"));
    EXPECT_THAT(glue, HasSubstr("mcl::cuda::DeviceArray<float> mcl_scratch_0_row(mcl_device, (size_t)mcl_groups_0 * "
                                "(size_t)((32)));"));
    EXPECT_THAT(glue, HasSubstr("mcl_scratch_copy.data(), mcl_scratch_0_row.data());"));
}

TEST(CudaBackend, EachTopLevelForeachIsAKernel) {
    Generated g = generate_cuda(kTwoLaunchesKernel);
    std::string k = g.file("two_kernels.cuh"), glue = g.file("two.cu");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("__global__ void __launch_bounds__(32) k_0("));
    EXPECT_THAT(k, HasSubstr("__global__ void __launch_bounds__(32) k_1("));
    // The host computes halfN once; no kernel reads it, so none takes it.
    EXPECT_THAT(glue, HasSubstr("int halfN = (int)((long long)n > 0 ? ((long long)n + 2 - 1) / 2 : (long long)n / 2);"));
    EXPECT_THAT(k, Not(HasSubstr("halfN")));
    EXPECT_THAT(glue, HasSubstr("kernels::k_0<<<"));
    EXPECT_THAT(glue, HasSubstr("kernels::k_1<<<"));
}

TEST(CudaBackend, ScalarsTheParametersDetermineAreComputedOnceOnTheHost) {
    // What a launch reads of `half` comes as an argument (no thread divides
    // again); a constant (`width`) is written into the kernel, where nvcc
    // folds it.
    Generated g = generate_cuda(R"(module once;
import hopper;
hopper void k(int n, float[n] x) {
    const int half = divide_up(n, 2);
    const int width = 32;
    foreach (int b in half blocks) { foreach (int w in 1 warps) { foreach (int t in width threads) {
        if (t == 0) { x[b] = toFloat(half); } } } }
}
)");
    std::string k = g.file("once_kernels.cuh"), glue = g.file("once.cu");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("const int mcl_items_1, const int half) {"));
    EXPECT_THAT(k, Not(HasSubstr("/ 2)")));
    EXPECT_THAT(k, HasSubstr("const int width = 32;"));
    EXPECT_THAT(glue, HasSubstr("int half = (int)((long long)n > 0 ? ((long long)n + 2 - 1) / 2 : (long long)n / 2);"));
    EXPECT_THAT(glue, HasSubstr("(int)mcl_items_1, half);"));
}

// `#pragma unroll` goes before the loops whose trip count is a constant of
// at most 16 (a const local, `<=`, a constant stride count; the index read
// by calls), and before no other: runtime bounds, longer loops, one
// iteration, an index the body assigns or passes to a parameter written,
// a condition that is not `index < bound`.
TEST(CudaBackend, ShortConstantLoopsAreUnrolledInTheSource) {
    Generated g = generate_cuda(R"(module unroll;
export k;
import hopper;
hopper void skip(int i, const int by) { i = i + by; }
hopper void k(int n, float[n] x) {
    const int steps = 8;
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        float s = 0.0;
        for (int a1 = 0; a1 < steps; a1++) { s += 1.0; }
        for (int a2 = 1; a2 <= 16; a2++) { s += 2.0; }
        for (int a3 = 0; a3 < 64; a3 += 4) { s += toFloat(a3); }
        for (int r1 = 0; r1 < n; r1++) { s += 4.0; }
        for (int r2 = 0; r2 < 17; r2++) { s += 5.0; }
        for (int r3 = 0; r3 < 1; r3++) { s += 6.0; }
        for (int r4 = 0; r4 < 8; r4++) { if (s > 100.0) { r4 = 8; } }
        for (int r5 = 0; 8 > r5; r5++) { s += 7.0; }
        for (int r6 = 0; r6 < 8; r6 += n) { s += 8.0; }
        for (int r7 = 0; r7 < 8; r7++) { if (s > 100.0) { skip(r7, 2); } }
        int u = 0;
        for (int a4 = 0; a4 < 8; a4++) { s += toFloat(a4); skip(u, a4); }
        for (int big = 0; big < 16; big++) {
            for (int a5 = 0; a5 < 16; a5++) { for (int a6 = 0; a6 < 16; a6++) { s += 9.0; } }
        }
        if (t == 0) { x[b] = s; }
    } } }
    foreach (int b in n blocks) {
        for (int around = 0; around < 2; around++) {
            foreach (int w in 1 warps) { foreach (int t in 32 threads) { x[b] = x[b] + 1.0; } }
        }
    }
}
)");
    std::string k = g.file("unroll_kernels.cuh");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    // each iteration a scope that binds the index, where the body uses it
    for (std::string index : {"a1", "a2", "a3", "a4", "a5", "a6"}) {
        EXPECT_THAT(k, Not(HasSubstr("for (int " + index + " = "))) << index;
        EXPECT_THAT(k, HasSubstr("iterations, " + index + " from ")) << index;
    }
    EXPECT_THAT(k, HasSubstr("unrolled: 16 iterations, a3 from 0 by 4"));
    EXPECT_THAT(k, HasSubstr("unrolled: 16 iterations, a2 from 1 by 1"));
    EXPECT_THAT(k, HasSubstr("    int a3 = 60;"));
    EXPECT_THAT(k, HasSubstr("    int a4 = 7;"));
    EXPECT_THAT(k, Not(HasSubstr("int a3 = 64;")));
    EXPECT_THAT(k, Not(HasSubstr("int a1 = ")));  // its body does not use it
    EXPECT_THAT(k, Not(HasSubstr("int a6 = ")));
    // not `const`, which nvcc's front end would fold into warnings about
    // the first copy (tests/difftest/found/cuda_unrolled_index_as_a_constant)
    EXPECT_THAT(k, Not(HasSubstr("const int a3 = ")));
    // loops that stay loops: not constant, too long, the index written,
    // or unrolling would print too much (big) or around a foreach (around)
    for (std::string index : {"r1", "r2", "r3", "r4", "r5", "r6", "r7"}) {
        EXPECT_THAT(k, HasSubstr("for (int " + index + " = ")) << index;
        EXPECT_THAT(k, Not(HasSubstr("#pragma unroll\n                for (int " + index + " = "))) << index;
    }
    EXPECT_THAT(k, HasSubstr("#pragma unroll\n                for (int big = "));
    EXPECT_THAT(k, HasSubstr("#pragma unroll\n        for (int around = "));
    // `steps` bounds only a1, whose unrolled form does not print it
    EXPECT_THAT(k, HasSubstr("[[maybe_unused]] const int steps = 8;"));
}

// A block's statements run in order: every thread waits after a foreach
// over warps that more of the block's code follows, and block-level code
// that read shared memory is done before the next foreach may write it.
TEST(CudaBackend, ThreadsOfABlockSynchroniseBetweenItsPhases) {
    Generated g = generate_cuda(R"(module ph;
import hopper;
hopper void k(int n, float[n, 32] x) {
    foreach (int b in n blocks) {
        shared float[32] s;
        foreach (int w in 1 warps) { foreach (int t in 32 threads) { s[t] = x[b, t]; } }
        float first = s[0];
        foreach (int w2 in 1 warps) { foreach (int t2 in 32 threads) { s[t2] = s[31 - t2] + first; } }
        foreach (int w3 in 1 warps) { foreach (int t3 in 32 threads) { x[b, t3] = s[t3]; } }
    }
}
)");
    std::string cu = g.file("ph_kernels.cuh");
    ASSERT_FALSE(cu.empty()) << g.diagnostics();
    EXPECT_THAT(cu, HasSubstr("        }\n        __syncthreads();\n        float first = s[(0)];\n"
                              "        __syncthreads();\n        {\n            [[maybe_unused]] const int w2 = "));
    EXPECT_THAT(cu, HasSubstr("        }\n        __syncthreads();\n        {\n            [[maybe_unused]] const int w3 = "));
    // nothing of the block follows the last foreach
    size_t count = 0;
    for (size_t at = cu.find("__syncthreads()"); at != std::string::npos; at = cu.find("__syncthreads()", at + 1))
        ++count;
    EXPECT_EQ(count, 3u) << cu;
}

// Sibling thread nests of different depths: the innermost loops of both
// take threadIdx.x, and the shallower nest runs only where the index it
// does not take (threadIdx.z, the 4 warps of the deeper one) is 0. A
// barrier there is reached by every thread: the condition goes into the
// statements between the barriers (GuardPushing.h); a loop around a
// barrier whose count those statements change is refused.
TEST(CudaBackend, ShallowerThreadNestsRunOnlyWhereTheIndicesTheyLeaveAreZero) {
    const std::string kernel = R"(module depth;
import hopper;
hopper void k(int n, float[n, 128] x, float[n] y) {
    foreach (int b in n blocks) {
        shared float[128] s;
        foreach (int r in 4 warps) {
            foreach (int w in 1 warps) { foreach (int t in 32 threads) { s[r * 32 + t] = x[b, r * 32 + t]; } }
        }
        foreach (int w2 in 1 warps) { foreach (int t2 in 32 threads) { SECOND } }
    }
}
)";
    auto with = [&](const std::string& second) {
        std::string text = kernel;
        return generate_cuda(text.replace(text.find("SECOND"), 6, second));
    };
    Generated g = with("if (t2 == 0) { y[b] = s[0] + s[127]; }");
    std::string cu = g.file("depth_kernels.cuh");
    ASSERT_FALSE(cu.empty()) << g.diagnostics();
    EXPECT_THAT(cu, HasSubstr("__launch_bounds__(128)"));
    EXPECT_THAT(cu, HasSubstr("const int r = ((int)threadIdx.z);"));
    EXPECT_THAT(cu, HasSubstr("const int t = ((int)threadIdx.x);"));
    EXPECT_THAT(cu, HasSubstr("                const int t2 = ((int)threadIdx.x);\n"
                              "                if (((int)threadIdx.z) == 0) {\n"
                              "                    if (t2 == 0) {\n"));

    Generated pushed = with("s[t2] = 1.0; barrier(shared); if (t2 == 0) { y[b] = s[1]; }");
    std::string pushed_cu = pushed.file("depth_kernels.cuh");
    ASSERT_FALSE(pushed_cu.empty()) << pushed.diagnostics();
    EXPECT_THAT(pushed_cu, HasSubstr("                const bool mcl_runs_t2 = ((int)threadIdx.z) == 0;\n"
                                     "                if (mcl_runs_t2) {\n"
                                     "                    s[(t2)] = 1.0f;\n"
                                     "                }\n"
                                     "                __syncthreads();\n"
                                     "                if (mcl_runs_t2) {\n"
                                     "                    if (t2 == 0) {\n"));

    Generated refused = with("int m = 0; m = 2; for (int k = 0; k < m; k++) { barrier(shared); }");
    EXPECT_TRUE(refused.files.empty());
    EXPECT_THAT(refused.diagnostics(),
                HasSubstr("9:108: error: the cuda backend cannot keep every item of the group at the barriers of the "
                          "foreach on line 9: the items of the group that only a deeper sibling nest uses could "
                          "decide this loop otherwise than the units that run (it depends on 'm', which the guarded "
                          "statements change and they do not)"));
}

// Code outside the innermost foreach runs in every thread under it: writes
// there, scalars the threads share, and loops over threads of one warp that
// would need the warp's threads to wait are refused, each where it is.
TEST(CudaBackend, CodeEveryThreadWouldRunAloneIsRefused) {
    Generated g = generate_cuda(R"(module alone;
import hopper;
hopper void k(int n, float[n, 32] x, float[n] y) {
    foreach (int b in n blocks) {
        y[b] = 0.0;
        float acc = 0.0;
        shared float one;
        foreach (int w in 1 warps) {
            foreach (int t in 32 threads) { if (t == 0) { acc = x[b, t]; } }
            foreach (int t2 in 32 threads) { x[b, t2] = 1.0; }
        }
        foreach (int w2 in 1 warps) { foreach (int t3 in 32 threads) { x[b, t3] = acc; } }
    }
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("5:9: error: the cuda backend runs the code outside the innermost foreach "
                                           "loops of a work-group in every item below it, so each item would make "
                                           "this write"));
    EXPECT_THAT(g.diagnostics(), HasSubstr("7:9: error: the cuda backend cannot place the scalar 'one' in memory "
                                           "space 'shared'"));
    EXPECT_THAT(g.diagnostics(), HasSubstr("9:13: error: the cuda backend cannot make the items under one unit of "
                                           "the foreach over 'warps' wait for each other after this foreach over "
                                           "'threads'"));
    EXPECT_THAT(g.diagnostics(), HasSubstr("9:59: error: 'acc' is declared outside this loop, so its units share it, "
                                           "but the cuda backend gives each item its own copy"));
}

// A warp's code before its threads loop may read what the loop only reads,
// not what it writes: no barrier waits for one warp's threads.
TEST(CudaBackend, WarpCodeMayNotReadWhatItsThreadsLoopThenWrites) {
    Generated ok = generate_cuda(R"(module rd;
import hopper;
hopper void k(int n, float[n, 2, 32] x, const float[2] scale) {
    foreach (int b in n blocks) {
        foreach (int w in 2 warps) {
            float s = scale[w];
            foreach (int t in 32 threads) { x[b, w, t] = x[b, w, t] * s; }
        }
    }
}
)");
    EXPECT_FALSE(ok.file("rd_kernels.cuh").empty()) << ok.diagnostics();
    Generated bad = generate_cuda(R"(module wr;
import hopper;
hopper void k(int n, float[n, 2, 32] x) {
    foreach (int b in n blocks) {
        foreach (int w in 2 warps) {
            float first = x[b, w, 0];
            foreach (int t in 32 threads) { x[b, w, t] = x[b, w, t] - first; }
        }
    }
}
)");
    EXPECT_TRUE(bad.files.empty());
    EXPECT_THAT(bad.diagnostics(), HasSubstr("7:13: error: the cuda backend cannot make the items under one unit of "
                                             "the foreach over 'warps' wait for each other before this foreach over "
                                             "'threads', which writes 'x' that the code before it read"));
}

TEST(CudaBackend, LaunchBoundsFromTheBlockSizeOrTheDescription) {
    Generated g = generate_cuda(R"(module lb;
export k;
import hopper;
hopper void k(int n, float[n] x) {
    foreach (int b in n blocks) { foreach (int w in 2 warps) { foreach (int t in 32 threads) { x[b] = 1.0; } } }
    foreach (int b in n blocks) { foreach (int w in n warps) { foreach (int t in 32 threads) { x[b] = 2.0; } } }
    foreach (int b in n blocks) {
        foreach (int w in 1 warps) { foreach (int t in 16 threads) { x[b] = 3.0; } }
        foreach (int w in 1 warps) { foreach (int t in 24 threads) { x[b] = 4.0; } }
    }
}
)");
    std::string k = g.file("lb_kernels.cuh");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("__global__ void __launch_bounds__(64) k_0("));
    // n warps: as many as a hopper block may have (32 of 32 threads)
    EXPECT_THAT(k, HasSubstr("__global__ void __launch_bounds__(1024) k_1("));
    // loops that share a slot: the larger
    EXPECT_THAT(k, HasSubstr("__global__ void __launch_bounds__(24) k_2("));
}

TEST(CudaBackend, DeviceFunctionsTakeWrittenScalarsByReference) {
    Generated g = generate_cuda(R"(module dev;
export k;
import hopper;
hopper void twice(float r, const float v) { r = v * 2.0; }
hopper void k(int n, float[n] x, float total) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        if (t == 0) {
            float y = 0.0;
            twice(y, x[b]);
            x[b] = y;
        }
        if (b + t == 0) { total = 1.0; }
    } } }
}
)");
    std::string k = g.file("dev_kernels.cuh");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("__device__ void twice(float& r, float v) {"));
    EXPECT_THAT(k, HasSubstr("twice(y, x[(b)]);"));
    EXPECT_THAT(k, HasSubstr("float* __restrict__ x, float* total, const int mcl_groups_0"));
    EXPECT_THAT(k, HasSubstr("(*total) = 1.0f;"));
}

// lib.atomics' atomicAdd, declared for hopper.
const std::string kAtomicAdd = R"(hopper void atomicAdd(global float r, const float a) {
    mcl_builtin_read(r);
    mcl_builtin_read(a);
    mcl_builtin_write(r);
}
)";

TEST(CudaBackend, BuiltinsUseCudaSpellings) {
    Generated g = generate_cuda(R"(module bi;
export k;
import hopper;
)" + kAtomicAdd + R"(hopper float sqrt(const float x) { mcl_builtin_read(x); }
hopper void k(int n, float[n] x, global float sum) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        if (t == 0) { atomicAdd(sum, sqrt(x[b])); x[b] = min(x[b], 1.0); }
    } } }
}
)");
    std::string k = g.file("bi_kernels.cuh");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("atomicAdd(&((*sum)), (sqrt(x[(b)])));"));
    EXPECT_THAT(k, HasSubstr("min(x[(b)], 1.0f)"));
}

TEST(CudaBackend, NativeMathFunctionsAreTheIntrinsics) {
    Generated g = generate_cuda(R"(module nm;
export k;
import hopper;
hopper float native_exp(const float x) { mcl_builtin_read(x); }
hopper float native_log(const float x) { mcl_builtin_read(x); }
hopper float native_divide(const float x, const float y) { mcl_builtin_read(x); mcl_builtin_read(y); }
hopper float native_recip(const float x) { mcl_builtin_read(x); }
hopper void k(int n, float[n] x) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        if (t == 0) { x[b] = native_exp(native_log(x[b])) + native_divide(x[b], 3.0) + native_recip(x[b]); }
    } } }
}
)");
    std::string k = g.file("nm_kernels.cuh");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("__expf(__logf(x[(b)]))"));
    EXPECT_THAT(k, HasSubstr("__fdividef(x[(b)], 3.0f)"));
    EXPECT_THAT(k, HasSubstr("__fdividef(1.0f, (x[(b)]))"));
}

TEST(CudaBackend, DeviceFunctionsAreSpeltPerScopeOfTheirAtomicsTargets) {
    // A thread's own variable is updated plainly (an atomic on local memory
    // is undefined), device memory atomically, through two calls.
    Generated g = generate_cuda(R"(module scoped;
export k;
import hopper;
)" + kAtomicAdd + R"(hopper void bump(float r, const float v) { atomicAdd(r, v); }
hopper void viaBump(float r, float unrelated, const float v) { bump(r, v); unrelated = v; }
hopper void k(int n, float[n] x) {
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        float mine = 1.0;
        float other = 0.0;
        viaBump(mine, other, 2.0);
        viaBump(x[b], other, mine + other);
    } } }
}
)");
    std::string k = g.file("scoped_kernels.cuh");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("__device__ void bump(float& r, float v) {\n    (r) += (v);"));
    EXPECT_THAT(k, HasSubstr("__device__ void mcl_as_d_bump(float& r, float v) {\n    atomicAdd(&(r), (v));"));
    EXPECT_THAT(k, HasSubstr("__device__ void viaBump(float& r, float& unrelated, float v) {\n    bump(r, v);"));
    EXPECT_THAT(k, HasSubstr("__device__ void mcl_as_d_viaBump(float& r, float& unrelated, float v) {\n"
                             "    mcl_as_d_bump(r, v);"));
    EXPECT_THAT(k, HasSubstr("viaBump(mine, other, 2.0f);"));
    EXPECT_THAT(k, HasSubstr("mcl_as_d_viaBump(x[(b)], other, (mine + other));"));
}

}  // namespace
}  // namespace mcl::backends::testing
