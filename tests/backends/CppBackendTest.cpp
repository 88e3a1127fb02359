// The cpp backend: the shape of what it emits (linearisation of arrays,
// tiles and `as` views, written scalars, records, builtins, OpenMP loops,
// host interface) and its located errors. That the emitted code computes
// the right thing is shown end to end (run_end_to_end.sh).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/backends/BackendTestSupport.h"

namespace mcl::backends::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(CppBackend, FilesOfAModule) {
    Generated g = generate(R"(module vadd;
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
    EXPECT_THAT(g.file("vadd.cpp"), HasSubstr("throw mcl::Error("));
    EXPECT_THAT(g.file("mcl_runtime.h"), HasSubstr("struct Error : std::runtime_error"));
    std::string k = g.file("vadd_kernels.cpp");
    EXPECT_THAT(k, HasSubstr("const float* __restrict__ a"));
    EXPECT_THAT(k, HasSubstr("#pragma omp parallel for\n"));
    EXPECT_THAT(k, HasSubstr("#pragma omp simd\n"));
    EXPECT_THAT(k, HasSubstr("c[(i)] = a[(i)] + 1.0f;"));
}

TEST(CppBackend, RowMajorLinearisationAndCollapsedNest) {
    Generated g = generate(R"(module mm;
import x86_avx2;
x86_avx2 void k(int n, int m, float[n, m] c, const float[n, m] a) {
    foreach (int i in n threads) {
        foreach (int j in m threads) {
            c[i, j] = a[i, j] * 2.0;
        }
    }
}
)");
    std::string k = g.file("mm_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("#pragma omp parallel for collapse(2)\n"));
    EXPECT_THAT(k, HasSubstr("c[(long long)(i) * (m) + (j)] = a[(long long)(i) * (m) + (j)] * 2.0f;"));
}

TEST(CppBackend, TilesViewsAndThreeDimensions) {
    Generated g = generate(R"(module tv;
import x86_avx2;
x86_avx2 void k(int n, float[n][4] t, const float[n, 2, 3] a as float[n * 6] flat) {
    foreach (int i in n threads) {
        t[i][1] = a[i, 1, 2] + flat[i];
    }
}
)");
    std::string k = g.file("tv_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("t[(long long)(i) * (4) + (1)] = a[((long long)(i) * (2) + (1)) * (3) + (2)] + flat[(i)];"));
    EXPECT_THAT(k, HasSubstr("const float* flat = a;"));
    EXPECT_THAT(g.file("tv.h"), HasSubstr("void k(int n, float* t, const float* a);"));
}

TEST(CppBackend, WrittenScalarIsAPointerAndAtomicAddAnOmpAtomic) {
    Generated g = generate(R"(module red;
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
    EXPECT_THAT(k, HasSubstr("mcl_atomic_add((*sum), values[(i)]);"));
    EXPECT_THAT(k, HasSubstr("#pragma omp atomic\n"));
    // a function with a builtin body is not emitted, nor is it a kernel
    EXPECT_THAT(k, Not(HasSubstr("void atomicAdd(")));
}

TEST(CppBackend, RecordsDeviceFunctionsAndBuiltins) {
    Generated g = generate(R"(module rec;
export k;
import perfect;
const float HALF = 0.5;
type Pair { float x; float y; }
perfect float sqrt(const float x) { mcl_builtin_read(x); }
perfect void scale(reg main Pair p, const float f) {
    p.x = p.x * f;
    p.y = p.y * f;
}
perfect void k(int n, Pair[n] ps, const float[n] w) {
    foreach (int i in n threads) {
        scale(ps[i], sqrt(w[i]) ^ 2 + toFloat(divide_up(n, 3)) * HALF);
    }
}
)");
    std::string k = g.file("rec_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(g.file("rec.h"), HasSubstr("typedef struct Pair {\n    float x;\n    float y;\n} Pair;"));
    EXPECT_THAT(g.file("rec.h"), HasSubstr("void k(int n, Pair* ps, const float* w);"));
    EXPECT_THAT(k, HasSubstr("void scale(Pair& p, float f);"));
    EXPECT_THAT(k, HasSubstr("const float HALF_ = 0.5f;"));
    EXPECT_THAT(k, HasSubstr("((float)std::pow(std::sqrt(w[(i)]), 2))"));
    EXPECT_THAT(k, HasSubstr("((float)((int)((long long)n > 0 ? ((long long)n + 3 - 1) / 3 : (long long)n / 3)))"));
    EXPECT_THAT(k, HasSubstr("device::scale(ps[(i)], "));
}

TEST(CppBackend, BarrierOverAllThreadsIsALocatedError) {
    Generated g = generate(R"(module b;
import x86_avx2;
x86_avx2 void k(int n, float[n] a) {
    foreach (int i in n threads) {
        foreach (int v in 8 vectors) {
            a[i] = 1.0;
            barrier(main);
        }
    }
}
)");
    EXPECT_TRUE(g.files.empty());
    EXPECT_THAT(g.diagnostics(), HasSubstr("t.mcl:7:13: error: barrier(main) would synchronise every unit of "
                                           "'threads' at 'x86_avx2'"));
}

TEST(CppBackend, ConfigurationGapsAreLocatedErrors) {
    const char* kernel = R"(module m;
import perfect;
perfect float exp(const float x) { mcl_builtin_read(x); }
perfect void k(int n, float[n] a) {
    foreach (int i in n threads) { a[i] = exp(a[i]); }
}
)";
    Generated no_builtin = generate(kernel, "x86_avx2", "cpp", R"({ "leaf": "x86_avx2", "backends": { "cpp": {
        "device_type": "cpu",
        "par_groups": { "threads": { "map": "parallel_for" }, "vectors": { "map": "simd_loop" } },
        "memory_spaces": { "main": { "qualifier": "" }, "reg": { "qualifier": "" } } } } })");
    EXPECT_TRUE(no_builtin.files.empty());
    EXPECT_THAT(no_builtin.diagnostics(),
                HasSubstr("t.mcl:5:43: error: library function 'exp' has no spelling in \"builtins\" of backend "
                          "'cpp' in 'test-config.json'"));

    Generated bad_map = generate(kernel, "x86_avx2", "cpp", R"({ "leaf": "x86_avx2", "backends": { "cpp": {
        "device_type": "cpu",
        "par_groups": { "threads": { "map": "parallel" }, "vectors": { "map": "simd_loop" } },
        "memory_spaces": { "main": { "qualifier": "" }, "reg": { "qualifier": "" } },
        "builtins": { "exp": "std::exp" } } } })");
    EXPECT_TRUE(bad_map.files.empty());
    EXPECT_THAT(bad_map.diagnostics(), HasSubstr("par_group 'threads' has no valid \"map\" for backend 'cpp'"));
    EXPECT_THAT(bad_map.diagnostics(), HasSubstr("test-config.json:3:25: note: \"map\" must be"));

    Generated no_backend = generate(kernel, "x86_avx2", "cpp", R"({ "leaf": "x86_avx2", "backends": {} })");
    EXPECT_THAT(no_backend.diagnostics(), HasSubstr("target 'x86_avx2' has no configuration for backend 'cpp'"));
}

TEST(CppBackend, KernelsAreExportsOrFunctionsWithForeach) {
    Generated g = generate(R"(module two;
import perfect;
perfect float twice(const float x) { return x * 2.0; }
perfect void k1(int n, float[n] a) { foreach (int i in n threads) { a[i] = twice(a[i]); } }
perfect void k2(int n, float[n] a) { foreach (int i in n threads) { a[i] = 0.0; } }
)");
    std::string h = g.file("two.h");
    ASSERT_FALSE(h.empty()) << g.diagnostics();
    EXPECT_THAT(h, HasSubstr("void k1(int n, float* a);"));
    EXPECT_THAT(h, HasSubstr("void k2(int n, float* a);"));
    EXPECT_THAT(h, Not(HasSubstr("twice")));
    EXPECT_THAT(g.file("two_kernels.cpp"), HasSubstr("float twice([[maybe_unused]] float x) {\n    return x * 2.0f;"));
}

TEST(CppBackend, CppKeywordsAreRenamed) {
    Generated g = generate(R"(module kw;
import perfect;
perfect void k(int n, float[n] new, float class_) {
    foreach (int i in n threads) { float class = 1.0; new[i] = class + class_; }
}
)");
    std::string k = g.file("kw_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    // The parameter `class_` stays apart from the local `class`, which would hide it.
    EXPECT_THAT(k, HasSubstr("new_[(i)] = class_ + class__;"));
}

TEST(CppBackend, NamesLikeMacrosAndReservedNamesAreRenamed) {
    // NAN and M_PI are macros of <cmath>; names with a leading underscore are
    // the implementation's. NAN_ stays apart from the spelling of NAN.
    Generated g = generate(R"(module mac;
import perfect;
perfect void k(int n, float[n] NAN, float NAN_, float _x) {
    foreach (int i in n threads) { float M_PI = 1.0; NAN[i] = M_PI + NAN_ + _x; }
}
)");
    std::string k = g.file("mac_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("NAN_[(i)] = (M_PI_ + NAN__) + mcl_p_x;"));
}

TEST(CppBackend, ModuleNamedLikeACLibraryFunctionHasAnotherNamespace) {
    // `namespace div` would clash with div() of <cstdlib>, which the glue
    // includes; div_ stays apart from a module called div_ (div__). The
    // kernel inside the namespace keeps its name.
    Generated g = generate(R"(module div;
import perfect;
perfect void exp(int n, float[n] a) {
    foreach (int i in n threads) { a[i] = 1.0; }
}
)");
    std::string header = g.file("div.h");
    ASSERT_FALSE(header.empty()) << g.diagnostics();
    EXPECT_THAT(header, HasSubstr("namespace div_ {"));
    EXPECT_THAT(header, HasSubstr("void exp(int n, float* a);"));
    EXPECT_EQ(mcl::backends::host_namespace_identifier("div_"), "div__");
    EXPECT_EQ(mcl::backends::host_namespace_identifier("std"), "std_");
    EXPECT_EQ(mcl::backends::host_namespace_identifier("matmul"), "matmul");
    EXPECT_EQ(mcl::backends::host_identifier("div"), "div");
}

TEST(CppBackend, ModuleNamedLikeAHeaderTheGlueIncludesIsALocatedError) {
    // time.h in an include path would be found for <time.h>, which
    // <pthread.h> includes, and nothing would build.
    for (const char* backend : {"cpp", "llvm"}) {
        Generated g = generate(R"(module time;
import perfect;
perfect void k(int n, float[n] a) {
    foreach (int i in n threads) { a[i] = 1.0; }
}
)",
                               "x86_avx2", backend);
        EXPECT_TRUE(g.files.empty()) << backend;
        EXPECT_THAT(g.diagnostics(), HasSubstr("t.mcl:1:8: error: cannot generate files named 'time' (time.h, "
                                               "time.cpp): wherever they are an include path, time.h would be found "
                                               "instead of the <time.h> that the glue's headers include"))
            << backend;
    }
}

TEST(CppBackend, UserNamesWithTheGeneratorsPrefixAreRenamed) {
    // `mcl_` is the prefix of the generator's own names (mcl_swap_tmp here):
    // a user's name with it becomes `mcl_u_...`, which no generated name is.
    Generated g = generate(R"(module pre;
import x86_avx2;
x86_avx2 void k(int n, float[n] mcl_a) {
    foreach (int i in n threads) { float mcl_swap_tmp = 1.0; mcl_a[i] <=> mcl_swap_tmp; }
}
)",
                           "x86_avx2");
    std::string k = g.file("pre_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("float mcl_u_swap_tmp = 1.0f;"));
    EXPECT_THAT(k, HasSubstr("{ float mcl_swap_tmp = mcl_u_a[(i)]; mcl_u_a[(i)] = mcl_u_swap_tmp; "
                             "mcl_u_swap_tmp = mcl_swap_tmp; }"));
}

TEST(CppBackend, StorageOfALocalArrayHasAGeneratedName) {
    // The heap storage of `buf` must not take the name of the user's `buf_storage`.
    Generated g = generate(R"(module st;
import x86_avx2;
x86_avx2 void k(int n, float[n] a) {
    float[n] buf;
    int buf_storage = 2;
    foreach (int i in n threads) { buf[i] = a[i]; a[i] = buf[i] * toFloat(buf_storage); }
}
)",
                           "x86_avx2");
    std::string k = g.file("st_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("std::unique_ptr<float[]> mcl_storage_buf(new float[static_cast<std::size_t>(n)]());\n"
                             "    [[maybe_unused]] float* buf = mcl_storage_buf.get();\n"
                             "    int buf_storage = 2;\n"));
}

TEST(CppBackend, CountNamedLikeTheIndexIsReadBeforeTheIndexExists) {
    // In C the index of `for (int n = 0; n < n; ++n)` would hide the count.
    Generated g = generate(R"(module idx;
import x86_avx2;
x86_avx2 void k(int n, float[n] a) { foreach (int n in n threads) { a[n] = 1.0; } }
)",
                           "x86_avx2");
    std::string k = g.file("idx_kernels.cpp");
    ASSERT_FALSE(k.empty()) << g.diagnostics();
    EXPECT_THAT(k, HasSubstr("const int mcl_count_n = n;\n    #pragma omp parallel for\n"
                             "    for (int n = 0; n < mcl_count_n; ++n)"));
}

}  // namespace
}  // namespace mcl::backends::testing

namespace mcl::backends::testing {
namespace {

TEST(CppBackend, ReturnInsideForeachIsALocatedError) {
    Generated g = generate(R"(module r;
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
                ::testing::HasSubstr("error: return statements inside a foreach are not supported by the cpp backend"));
}

}  // namespace
}  // namespace mcl::backends::testing

namespace mcl::backends::testing {
namespace {

TEST(CppBackend, AnExportedFunctionCalledByAKernelIsAlsoADeviceFunction) {
    Generated g = generate(R"(module lib2;
export k, bump;
import perfect;
perfect void bump(float x) { x = x + 1.0; }
perfect void k(int n, float[n] a) { foreach (int i in n threads) { bump(a[i]); } }
)");
    ASSERT_FALSE(g.files.empty()) << g.diagnostics();
    EXPECT_THAT(g.file("lib2.h"), ::testing::HasSubstr("void bump(float* x);"));
    EXPECT_THAT(g.file("lib2_kernels.cpp"), ::testing::HasSubstr("void bump(float& x);"));
    EXPECT_THAT(g.file("lib2_kernels.cpp"), ::testing::HasSubstr("(*x) = (*x) + 1.0f;"));
    EXPECT_THAT(g.file("lib2_kernels.cpp"), ::testing::HasSubstr("device::bump(a[(i)]);"));
}

}  // namespace
}  // namespace mcl::backends::testing
