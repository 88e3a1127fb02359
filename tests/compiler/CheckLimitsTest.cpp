// Sizes known at compile time against the hardware description: unit counts
// of foreach nests, array extents, memory capacities, constant indices and
// `as` views, at the function's own level and at every level translation
// takes it to. Each bad case is refused with the limit and where it comes
// from; the good cases around each limit pass.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/translate/Translate.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::mcpl::testing {
namespace {

using ::testing::HasSubstr;

std::string module(const std::string& imports, const std::string& body) {
    return "module t;\n" + imports + body;
}

TEST(CheckLimits, ThreadsUpToTheLimitPass) {
    expect_clean(check_text(module("import nvidia;\n", R"(
nvidia void f(int n, float[n, 1024] a) {
    foreach (int b in n blocks) { foreach (int t in 1024 threads) { a[b, t] = 0.0; } }
}
nvidia void g(int n, int m, float[n, 32, 32] a) {
    foreach (int b in n blocks) {
        foreach (int i in 32 threads) { foreach (int j in 32 threads) { a[b, i, j] = 0.0; } }
    }
}
nvidia void h(int n, int m, float[n, m] a) {
    foreach (int b in n blocks) { foreach (int t in m threads) { a[b, t] = 0.0; } }
}
)")));
}

TEST(CheckLimits, ThreadsBeyondTheLimitAreRefused) {
    expect_error(module("import nvidia;\n", R"(
nvidia void f(int n, float[n, 1025] a) {
    foreach (int b in n blocks) { foreach (int t in 1025 threads) { a[b, t] = 0.0; } }
})"),
                 "t.mcl:5:53: error: 1025 threads in a block, but nvidia allows at most 1024 "
                 "(nvidia.hierarchy.blocks.block.threads.max_nr_units)");
}

// Each dimension of a grid of blocks is bounded on its own; one beyond is
// reported once for its nest.
TEST(CheckLimits, OutermostDimensionsAreBoundedEachOnTheirOwn) {
    expect_clean(check_text(module("import nvidia;\n", R"(
nvidia void f(float[1000, 1000] a) {
    foreach (int i in 1000 blocks) { foreach (int j in 1000 blocks) { foreach (int t in 1 threads) { a[i, j] = 0.0; } } }
})")));
    expect_error(module("import nvidia;\n", R"(
nvidia void f(float[70000, 2] a) {
    foreach (int i in 70000 blocks) { foreach (int j in 2 blocks) { foreach (int t in 1 threads) { a[i, j] = 0.0; } } }
})"),
                 "t.mcl:5:23: error: 70000 blocks, but nvidia allows at most 65535 "
                 "(nvidia.hierarchy.blocks.max_nr_units)");
    expect_error(module("import nvidia;\n", R"(
nvidia void f(int n, float[n, 64, 64] a) {
    foreach (int b in n blocks) {
        foreach (int i in 2048 threads) { foreach (int j in 2 threads) { a[b, i, j] = 0.0; } }
    }
})"),
                 "2048 threads in a block, but nvidia allows at most 1024");
}

TEST(CheckLimits, ANonConstantCountInTheNestCountsNothing) {
    expect_error(module("import nvidia;\n", R"(
nvidia void f(int n, int m, float[n, m, 2048] a) {
    foreach (int b in n blocks) {
        foreach (int i in m threads) { foreach (int j in 2048 threads) { a[b, i, j] = 0.0; } }
    }
})"),
                 "2048 threads in a block, but nvidia allows at most 1024");
}

// An exact count says how many units there are; more run in rounds.
TEST(CheckLimits, AnExactCountIsNoLimit) {
    expect_clean(check_text(module("import x86_avx2;\n", R"(
x86_avx2 void f(int n, float[n, 16] a) {
    foreach (int t in n threads) { foreach (int v in 16 vectors) { a[t, v] = 0.0; } }
})")));
}

TEST(CheckLimits, ConstantsAndHardwareValuesAreCounted) {
    expect_error(module("import nvidia;\n", R"(
const int THREADS = nvidia.hierarchy.blocks.block.threads.max_nr_units * 2;
nvidia void f(int n, float[n, THREADS] a) {
    foreach (int b in n blocks) { foreach (int t in THREADS threads) { a[b, t] = 0.0; } }
})"),
                 "2048 threads in a block, but nvidia allows at most 1024");
}

TEST(CheckLimits, ExtentsArePositive) {
    expect_error(module("import perfect;\n", "perfect void f(int n) { float[2, 0] x; x[0, 0] = 1.0; }\n"),
                 "t.mcl:3:34: error: 'x' has extent 0: an array extent must be positive");
    expect_error(module("import perfect;\n", "perfect void f(int n, float[-1] x) { }\n"),
                 "'x' has extent -1: an array extent must be positive");
    expect_error(module("import perfect;\n", "type R { float[-2] v; }\nperfect void f(int n) { }\n"),
                 "'v' has extent -2");
}

// `fits` checks clean, and with its first `from` made `to` has one error,
// `message`.
void expect_clean_until(const std::string& fits, const std::string& from, const std::string& to,
                        const std::string& message) {
    expect_clean(check_text(fits));
    std::string beyond = fits;
    beyond.replace(beyond.find(from), from.size(), to);
    CheckedText checked = check_text(beyond);
    EXPECT_EQ(checked.diags->error_count(), 1u) << checked.text();
    EXPECT_THAT(checked.text(), HasSubstr(message));
}

TEST(CheckLimits, SharedMemoryFitsUpToItsCapacity) {
    // nvidia: 48 kB of shared memory (nvidia.sms.sm.shared_mem).
    std::string fits = module("import nvidia;\n", R"(
nvidia void f(int n, float[n] a) {
    foreach (int b in n blocks) {
        shared float[8192] x;
        shared float[4096] y;
        foreach (int t in 32 threads) { x[t] = a[b]; y[t] = x[t]; a[b] = y[t]; }
    }
})");
    expect_clean_until(fits, "4096", "4097",
                       "t.mcl:7:28: error: 'y' brings memory space 'shared' to 49156 bytes per block, but nvidia has "
                       "room for at most 49152 bytes (");
}

TEST(CheckLimits, RecordsTakeTheBytesOfTheirCStruct) {
    // A record holding an array counts it, and its fields are laid out as
    // C aligns them: {byte; double; float[3]} is 1 + 7 (padding) + 8 + 12
    // + 4 (padding to a multiple of 8) = 32 bytes.
    std::string fits = module("import nvidia;\n", R"(
type Cell { byte tag; double w; float[3] v; }
nvidia void f(int n, float[n] a) {
    foreach (int b in n blocks) {
        shared Cell[1536] x;
        foreach (int t in 32 threads) { x[t].v[0] = a[b]; a[b] = x[t].v[0]; }
    }
})");
    expect_clean_until(fits, "1536", "1537",
                       "'x' brings memory space 'shared' to 49184 bytes per block, but nvidia has room for at most "
                       "49152 bytes (");
}

TEST(CheckLimits, EachLaunchHasTheSharedMemoryToItself) {
    // Two foreach nests over blocks one after the other are two launches:
    // each may take all 48 kB, while the arrays of one nest (a grid of
    // two dimensions here) add up.
    std::string two_launches = module("import nvidia;\n", R"(
nvidia void f(int n, float[n] a) {
    foreach (int b in n blocks) {
        shared float[12288] x;
        foreach (int t in 32 threads) { x[t] = a[b]; a[b] = x[t]; }
    }
    foreach (int b in n blocks) {
        shared float[12288] y;
        foreach (int t in 32 threads) { y[t] = a[b]; a[b] = y[t]; }
    }
})");
    expect_clean(check_text(two_launches));
    std::string one_grid = module("import nvidia;\n", R"(
nvidia void f(int n, float[n, n] a) {
    foreach (int b in n blocks) {
        shared float[12288] x;
        foreach (int c in n blocks) {
            shared float[1] y;
            foreach (int t in 32 threads) { x[t] = a[b, c]; y[0] = x[t]; a[b, c] = y[0]; }
        }
    }
})");
    CheckedText checked = check_text(one_grid);
    EXPECT_EQ(checked.diags->error_count(), 1u) << checked.text();
    EXPECT_THAT(checked.text(), HasSubstr("t.mcl:8:29: error: 'y' brings memory space 'shared' to 49156 bytes per "
                                          "block, but nvidia has room for at most 49152 bytes ("));
}

TEST(CheckLimits, ConstantIndicesStayWithinConstantExtents) {
    expect_clean(check_text(module("import perfect;\n", R"(
perfect void f(int n, float[n] a) {
    float[4] t;
    float[2][3] tiles;
    t[3] = 1.0;
    tiles[1][2] = t[0];
    a[n] = tiles[0][0];
})")));
    expect_error(module("import perfect;\n", "perfect void f(int n) { float[4] t; t[-1] = 1.0; }\n"),
                 "t.mcl:3:39: error: index -1 is out of range: 't' has 4 elements there (0 to 3)");
    expect_error(module("import perfect;\n", "perfect void f(int n) { float[2][3] t; t[2][0] = 1.0; }\n"),
                 "index 2 is out of range: 't' has 2 elements there (0 to 1)");
}

TEST(CheckLimits, RecordFieldIndices) {
    expect_error(module("import perfect;\n", R"(
type R { float[2] v; }
perfect void f(int n, R[n] r) { r[0].v[2] = 1.0; }
)"),
                 "index 2 is out of range: 'v' has 2 elements there (0 to 1)");
}

TEST(CheckLimits, ViewsHaveTheSizeOfTheirStorage) {
    expect_clean(check_text(module("import perfect;\n", R"(
perfect void f(int n, int m, float[n, m] a as float[n * m] flat) {
    int[2, 3] b as int[6] c;
    b as int[3, 2] d;
    c[0] = d[0, 0];
    flat[0] = a[0, 0];
})")));
    expect_error(module("import perfect;\n", "perfect void f(int n) { int[2, 3] b as int[5] c; c[0] = 1; }\n"),
                 "t.mcl:3:47: error: 'c' views 'b' (24 bytes) as int[] (20 bytes)");
}

// Translation checks the program again at each level: a thread-private
// array of 2 GiB is fine for nvidia (its device memory is unlimited), not
// for fermi (1536 MB).
TEST(CheckLimits, TranslationChecksAtTheTargetLevel) {
    std::string text = module("import nvidia;\n", R"(
nvidia void f(int n, float[n] a) {
    foreach (int b in n blocks) {
        foreach (int t in 32 threads) {
            local float[512, 1024, 1024] big;
            big[0, 0, 0] = a[b];
            a[b] = big[0, 0, 0];
        }
    }
})");
    CheckedText checked = check_text(text);
    expect_clean(checked);
    EXPECT_FALSE(translate::translate_program(checked.program, "fermi", *checked.library, *checked.diags));
    EXPECT_THAT(checked.text(), HasSubstr("t.mcl:7:42: error: 'big' brings memory space 'local' to 2147483648 bytes "
                                          "per thread, but fermi has room for at most 1610612736 bytes (fermi."));
}

}  // namespace
}  // namespace mcl::mcpl::testing
