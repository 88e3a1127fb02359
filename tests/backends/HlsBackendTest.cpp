// The hls backend: the shape of what it emits (top functions and their
// interface pragmas, PIPELINE and UNROLL and where they are left out, local
// arrays and their partitions, atomic updates, host glue) and its located
// errors. That the emitted code computes the right thing in C simulation is
// shown end to end (run_end_to_end.sh).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/backends/BackendTestSupport.h"

namespace mcl::backends::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Generated generate_hls(const std::string& text, const std::string& config_text = "") {
    return generate(text, "alveo_u250", "hls", config_text);
}

TEST(HlsBackend, CountNamedLikeTheIndexIsReadBeforeTheIndexExists) {
    Generated g = generate_hls(R"(module idx;
import alveo_u250;
alveo_u250 void k(int n, float[n] a) { foreach (int n in n pipelines) { a[n] = 1.0; } }
)");
    std::string k = g.file("idx_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("const int mcl_count_n = n;\n    for (int n = 0; n < mcl_count_n; ++n) {"));
}

TEST(HlsBackend, FilesTopFunctionAndInterfacePragmas) {
    Generated g = generate_hls(R"(module vadd;
export vadd;
import perfect;
perfect void vadd(int n, float[n] c, const float[n] a) {
    foreach (int i in n threads) { c[i] = a[i] + 1.0; }
}
)");
    ASSERT_EQ(g.files.size(), 4u) << g.diagnostics();
    EXPECT_EQ(g.files[0].name, "vadd.h");
    EXPECT_EQ(g.files[1].name, "vadd_kernels.cpp");
    EXPECT_EQ(g.files[2].name, "vadd.cpp");
    EXPECT_EQ(g.files[3].name, "mcl_runtime.h");
    EXPECT_THAT(g.file("vadd.h"), HasSubstr("namespace vadd {"));
    EXPECT_THAT(g.file("vadd.h"), HasSubstr("void vadd(int n, float* c, const float* a);"));
    std::string glue = g.file("vadd.cpp");
    EXPECT_THAT(glue, HasSubstr("extern \"C\" void vadd_vadd(int n, float* c, const float* __restrict__ a);"));
    EXPECT_THAT(glue, HasSubstr("return kernels::vadd_vadd(n, c, a);"));
    EXPECT_THAT(glue, HasSubstr("throw mcl::Error(std::string(\"vadd::vadd (hls backend): \") + e.what());"));
    EXPECT_THAT(glue, HasSubstr("XRT runtime would instead load the xclbin"));
    std::string k = g.file("vadd_kernels.cpp");
    EXPECT_THAT(k, HasSubstr("#ifdef __SYNTHESIS__\n#define MCL_HLS(x) _Pragma(#x)\n#else\n#define MCL_HLS(x)\n#endif"));
    EXPECT_THAT(k, Not(HasSubstr("#pragma HLS")));
    EXPECT_THAT(k, HasSubstr("extern \"C\" void vadd_vadd([[maybe_unused]] int n, [[maybe_unused]] float* c, "
                             "[[maybe_unused]] const float* __restrict__ a) {\n"
                             "    MCL_HLS(HLS INTERFACE s_axilite port=n)\n"
                             "    MCL_HLS(HLS INTERFACE m_axi port=c offset=slave bundle=gmem)\n"
                             "    MCL_HLS(HLS INTERFACE m_axi port=a offset=slave bundle=gmem)\n"
                             "    MCL_HLS(HLS INTERFACE s_axilite port=return)\n"));
}

TEST(HlsBackend, PipelinesArePipelinedAndLanesUnrolled) {
    Generated g = generate_hls(R"(module vadd;
import perfect;
perfect void vadd(int n, float[n] c, const float[n] a) {
    foreach (int i in n threads) { c[i] = a[i] + 1.0; }
}
)");
    std::string k = g.file("vadd_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("    for (int p_i = 0; p_i < nrPipelines_i; ++p_i) {\n"
                             "        MCL_HLS(HLS PIPELINE II=1)\n"
                             "        for (int l_i = 0; l_i < nrLanes_i; ++l_i) {\n"
                             "            MCL_HLS(HLS UNROLL)\n"));
    EXPECT_THAT(k, HasSubstr("c[(i)] = a[(i)] + 1.0f;"));
}

TEST(HlsBackend, APipelineWithAnInnerLoopLeavesItToHls) {
    Generated g = generate_hls(R"(module mv;
import perfect;
perfect void mv(int n, int m, float[n] y, const float[n, m] a, const float[m] x) {
    foreach (int i in n threads) {
        float sum = 0.0;
        for (int j = 0; j < m; j++) { sum += a[i, j] * x[j]; }
        y[i] = sum;
    }
}
)");
    std::string k = g.file("mv_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("    // pipelines: PIPELINE would unroll the loop over 'j' inside: HLS pipelines that loop "
                             "instead\n    for (int p_i = 0; p_i < nrPipelines_i; ++p_i) {\n"
                             "        for (int l_i = 0; l_i < nrLanes_i; ++l_i) {\n"
                             "            MCL_HLS(HLS UNROLL)\n"));
    EXPECT_THAT(k, Not(HasSubstr("PIPELINE II=1")));
}

TEST(HlsBackend, LanesWithoutAConstantTripCountArePipelined) {
    Generated g = generate_hls(R"(module l;
import alveo_u250;
alveo_u250 void k(int n, int m, float[n, m] a) {
    foreach (int i in n pipelines) {
        foreach (int l in m lanes) { a[i, l] = 1.0; }
    }
}
)");
    std::string k = g.file("l_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("    // pipelines: PIPELINE would unroll the loop over 'l' inside: HLS pipelines that loop "
                             "instead\n    for (int i = 0; i < n; ++i) {\n"
                             "        // lanes: UNROLL needs a constant trip count: pipelined instead\n"
                             "        for (int l = 0; l < m; ++l) {\n"
                             "            MCL_HLS(HLS PIPELINE II=1)\n"));
    EXPECT_THAT(k, Not(HasSubstr("UNROLL)")));
}

TEST(HlsBackend, LocalArraysHaveConstantSizesAndPartitions) {
    Generated g = generate_hls(R"(module loc;
import alveo_u250;
const int TILE = 4;
alveo_u250 void k(int n, float[n] a) {
    const int lanes = fpga.hierarchy.pipelines.pipeline.lanes.max_nr_units;
    foreach (int p in divide_up(n, lanes) pipelines) {
        bram float[lanes, TILE] t;
        bram float[2 * lanes] u;
        foreach (int l in lanes lanes) {
            const int i = p * lanes + l;
            float[TILE * 2] r;
            r[1] = 2.0;
            if (i < n) { t[l, 0] = a[i] * r[1]; }
            u[lanes + l] = 1.0;
        }
        foreach (int l in lanes lanes) {
            const int i = p * lanes + l;
            if (i < n) { a[i] = t[lanes - 1 - l, 0] + u[lanes + l]; }
        }
    }
}
)");
    std::string k = g.file("loc_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    // lanes select rows of t, 4 elements apart: one bank per element
    EXPECT_THAT(k, HasSubstr("float t[64] = {};\n"
                             "        MCL_HLS(HLS ARRAY_PARTITION variable=t complete dim=1)\n"));
    EXPECT_THAT(k, HasSubstr("float u[32] = {};\n"
                             "        MCL_HLS(HLS ARRAY_PARTITION variable=u cyclic factor=16 dim=1)\n"));
    EXPECT_THAT(k, HasSubstr("float r[8] = {};\n"
                             "            MCL_HLS(HLS ARRAY_PARTITION variable=r complete dim=1)\n"));
}

TEST(HlsBackend, TheArraysOfAllLoopsShareTheBlockRam) {
    // check lets each loop over pipelines have the block RAM to itself (two
    // launches on a GPU); the circuit holds both arrays at once.
    std::string two_loops = R"(module two;
import alveo_u250;
alveo_u250 void k(int n, float[n] a) {
    foreach (int p in n pipelines) {
        bram float[SIZE] t;
        t[0] = a[p];
        a[p] = t[0];
    }
    foreach (int p in n pipelines) {
        bram float[SIZE] u;
        u[0] = a[p];
        a[p] = u[0];
    }
}
)";
    auto with_size = [&](const std::string& size) {
        std::string text = two_loops;
        for (size_t at = text.find("SIZE"); at != std::string::npos; at = text.find("SIZE")) text.replace(at, 4, size);
        return generate_hls(text);
    };
    // alveo_u250: 47185920 bytes, its UltraRAM (the largest memory of 'bram').
    Generated beyond = with_size("7000000");
    EXPECT_TRUE(beyond.files.empty());
    EXPECT_THAT(beyond.diagnostics(),
                HasSubstr("t.mcl:10:29: error: 'u' brings memory space 'bram' to 56000000 bytes per pipeline in "
                          "the circuit the hls backend builds (one for all of a kernel's loops, whose arrays take "
                          "room together), but alveo_u250 has room for at most 47185920 bytes "
                          "(alveo_u250.compute_units.compute_unit.uram_blocks.capacity)"));
    Generated fits = with_size("5000000");
    EXPECT_FALSE(fits.file("two_kernels.cpp").empty()) << fits.diagnostics();
}

TEST(HlsBackend, NonConstantLocalArraysAreLocatedErrors) {
    Generated bram = generate_hls(R"(module b;
import alveo_u250;
alveo_u250 void k(int n, float[n] a) {
    foreach (int p in n pipelines) {
        bram float[n] t;
        t[0] = a[p];
        a[p] = t[0];
    }
}
)");
    EXPECT_TRUE(bram.files.empty());
    EXPECT_THAT(bram.diagnostics(), HasSubstr("t.mcl:5:20: error: local arrays in memory space 'bram' whose size is "
                                              "not a constant expression are not supported by the hls backend"));

    // In device memory, but inside a pipeline or in a device function: no
    // port of the kernel can stand for it.
    for (const char* array : {"foreach (int i in n threads) { main float[n] t; t[i] = a[i]; a[i] = t[i]; }",
                              "foreach (int i in n threads) { a[i] = f(n); }"}) {
        Generated dev = generate_hls(std::string(R"(module d;
import perfect;
perfect float f(int n) { main float[n] t; t[0] = 1.0; return t[0]; }
perfect void k(int n, float[n] a) {
    )") + array + "\n}\n");
        EXPECT_TRUE(dev.files.empty()) << array;
        EXPECT_THAT(dev.diagnostics(), HasSubstr("error: local arrays in memory space 'dev' whose size is not a "
                                                 "constant expression are not supported by the hls backend"))
            << array;
    }

    Generated empty = generate_hls(R"(module e;
import alveo_u250;
alveo_u250 void k(int n, float[n] a) {
    foreach (int p in n pipelines) {
        bram float[4 - 4] t;
        a[p] = 1.0;
    }
}
)");
    // check refuses it before the backend sees it (CheckLimits).
    EXPECT_TRUE(empty.files.empty());
    EXPECT_THAT(empty.diagnostics(),
                HasSubstr("t.mcl:5:22: error: 't' has extent 0: an array extent must be positive"));
}

TEST(HlsBackend, KernelArraysSizedByParametersAreDeviceMemoryTheGlueAllocates) {
    Generated g = generate_hls(R"(module d;
import perfect;
perfect void k(int n, int m, float[n] a) {
    float[n, m] copy;
    foreach (int i in n threads) { copy[i, 0] = a[i]; }
    foreach (int i in n threads) { a[i] = copy[n - 1 - i, 0]; }
}
)");
    std::string k = g.file("d_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("[[maybe_unused]] float* a, float* copy) {"));
    EXPECT_THAT(k, HasSubstr("    MCL_HLS(HLS INTERFACE m_axi port=copy offset=slave bundle=gmem)\n"
                             "    MCL_HLS(HLS INTERFACE s_axilite port=return)\n"));
    EXPECT_THAT(k, HasSubstr("std::fill_n(copy, (long long)(n) * (m), float{});"));
    std::string glue = g.file("d.cpp");
    EXPECT_THAT(glue, HasSubstr("extern \"C\" void d_k(int n, int m, float* a, float* copy);"));
    EXPECT_THAT(glue, HasSubstr("std::unique_ptr<float[]> mcl_storage_0(new float[(long long)(n) * (m)]());\n"
                                "        return kernels::d_k(n, m, a, mcl_storage_0.get());"));
}

TEST(HlsBackend, WrittenScalarIsAnAxiPortAndAtomicAddAPlainUpdate) {
    Generated g = generate_hls(R"(module red;
import perfect;
perfect void atomicAdd(reg main float r, const float a) {
    mcl_builtin_read(r);
    mcl_builtin_read(a);
    mcl_builtin_write(r);
}
perfect void red(int n, main float sum, const float[n] values) {
    foreach (int i in n threads) { atomicAdd(sum, values[i]); }
}
)");
    std::string k = g.file("red_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(g.file("red.h"), HasSubstr("void red(int n, float* sum, const float* values);"));
    EXPECT_THAT(k, HasSubstr("MCL_HLS(HLS INTERFACE m_axi port=sum offset=slave bundle=gmem)"));
    EXPECT_THAT(k, HasSubstr("((*sum)) += (values[(i)]);"));
    EXPECT_THAT(k, Not(HasSubstr("void atomicAdd(")));
}

TEST(HlsBackend, RecordsAndDeviceFunctions) {
    Generated g = generate_hls(R"(module rec;
export k;
import perfect;
type Pair { float x; float y; }
perfect void scale(reg main Pair p, const float f) {
    p.x = p.x * f;
    p.y = p.y * f;
}
perfect void k(int n, Pair[n] ps, const Pair q) {
    foreach (int i in n threads) { scale(ps[i], q.x); }
}
)");
    std::string k = g.file("rec_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(g.file("rec.h"), HasSubstr("typedef struct Pair {\n    float x;\n    float y;\n} Pair;"));
    EXPECT_THAT(k, HasSubstr("void scale(Pair& p, float f);"));
    EXPECT_THAT(k, HasSubstr("device::scale(ps[(i)], q.x);"));
    EXPECT_THAT(k, HasSubstr("MCL_HLS(HLS INTERFACE s_axilite port=q)"));
    EXPECT_THAT(k, HasSubstr("MCL_HLS(HLS INTERFACE m_axi port=ps offset=slave bundle=gmem)"));
}

TEST(HlsBackend, BarrierIsALocatedError) {
    Generated g = generate_hls(R"(module b;
import alveo_u250;
alveo_u250 void k(int n, float[n] a) {
    foreach (int p in n pipelines) {
        foreach (int l in 16 lanes) {
            a[p] = 1.0;
            barrier(bram);
        }
    }
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("t.mcl:7:13: error: barriers are not supported by the hls backend"));
}

TEST(HlsBackend, ReturnInsideForeachIsALocatedError) {
    Generated g = generate_hls(R"(module r;
import perfect;
perfect void k(int n, float[n] a) {
    foreach (int i in n threads) {
        if (i > 3) { return; }
        a[i] = 0.0;
    }
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(),
                HasSubstr("t.mcl:5:22: error: return statements inside a foreach are not supported by the hls backend"));
}

TEST(HlsBackend, ConfigurationGapsAreLocatedErrors) {
    const char* kernel = R"(module m;
import perfect;
perfect void k(int n, float[n] a) {
    foreach (int i in n threads) { a[i] = 2.0 * a[i]; }
}
)";
    Generated bad_loop = generate_hls(kernel, R"({ "leaf": "alveo_u250", "backends": { "hls": {
        "device_type": "fpga",
        "par_groups": { "pipelines": { "loop": "stream" }, "lanes": { "loop": "unroll" } },
        "memory_spaces": { "dev": {}, "bram": {}, "reg": { "partition": "block" } } } } })");
    EXPECT_TRUE(bad_loop.files.empty());
    EXPECT_THAT(bad_loop.diagnostics(), HasSubstr("test-config.json:3:25: error: par_group 'pipelines' has no valid "
                                                  "\"loop\" for backend 'hls' in 'test-config.json'"));
    EXPECT_THAT(bad_loop.diagnostics(),
                HasSubstr("test-config.json:3:25: note: \"loop\" must be \"pipeline\" or \"unroll\""));
    EXPECT_THAT(bad_loop.diagnostics(), HasSubstr("memory space 'reg' has no valid \"partition\""));

    Generated no_lanes = generate_hls(kernel, R"({ "leaf": "alveo_u250", "backends": { "hls": {
        "device_type": "fpga",
        "par_groups": { "pipelines": { "loop": "pipeline" } },
        "memory_spaces": { "dev": {}, "bram": {}, "reg": {} } } } })");
    EXPECT_TRUE(no_lanes.files.empty());
    EXPECT_THAT(no_lanes.diagnostics(),
                HasSubstr("par_group 'lanes' has no entry in \"par_groups\" of backend 'hls' in 'test-config.json'"));

    Generated no_backend = generate_hls(kernel, R"({ "leaf": "alveo_u250", "backends": {} })");
    EXPECT_THAT(no_backend.diagnostics(), HasSubstr("target 'alveo_u250' has no configuration for backend 'hls'"));
}

}  // namespace
}  // namespace mcl::backends::testing
