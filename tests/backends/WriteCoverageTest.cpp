// The write-coverage analysis (backends/WriteCoverage.h): which written
// arrays a kernel provably writes in every element, and the many ways of
// writing only part of one, which it must not mistake for full coverage.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "backends/WriteCoverage.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::backends {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// The fully written parameter positions of kernel `k` in `body`, a module
// at `perfect` whose kernel takes (int n, int m, float[n] a, float[n, m] b,
// const float[n] x).
std::set<size_t> covered(const std::string& body) {
    std::string text = "module cov;\nimport perfect;\nconst int four = 4;\n"
                       "perfect void k(int n, int m, float[n] a, float[n, m] b, const float[n] x) {\n" +
                       body + "\n}\n";
    mcpl::testing::CheckedText c = mcpl::testing::check_text(text);
    EXPECT_FALSE(c.diags->has_errors()) << c.text();
    if (!c.module() || c.module()->functions.empty()) return {};
    const mcpl::Function& k = *c.module()->functions.front();
    std::set<size_t> positions = WriteCoverage::fully_written_parameters(k);
    WriteCoverage coverage = WriteCoverage::of(*c.module());
    for (size_t p = 0; p < k.params.size(); ++p) EXPECT_EQ(coverage.fully_written(k, p), positions.count(p) > 0);
    return positions;
}

TEST(WriteCoverage, EveryElementThroughTheLoopIndices) {
    EXPECT_THAT(covered("foreach (int i in n threads) { a[i] = x[i]; }"), ElementsAre(2));
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int j in m threads) { b[i, j] = 1.0; } }"),
                ElementsAre(3));
    // Loops in another order, and a block around the assignment.
    EXPECT_THAT(covered("foreach (int j in m threads) { foreach (int i in n threads) { { b[i, j] = 1.0; } } }"),
                ElementsAre(3));
    // Sequential loops each writing one array.
    EXPECT_THAT(covered("foreach (int i in n threads) { a[i] = 0.0; }\n"
                        "foreach (int i in n threads) { foreach (int j in m threads) { b[i, j] = a[i]; } }"),
                ElementsAre(2, 3));
}

TEST(WriteCoverage, ConstantCountsAndExtents) {
    std::string text = R"(module cov;
import perfect;
const int four = 4;
perfect void k(float[four, 2 * 2] a, float[4] c) {
    foreach (int i in 4 threads) { foreach (int j in four threads) { a[i, j] = 1.0; } }
    foreach (int i in 2 + 2 threads) { c[i] = 1.0; }
}
)";
    mcpl::testing::CheckedText c = mcpl::testing::check_text(text);
    ASSERT_FALSE(c.diags->has_errors()) << c.text();
    EXPECT_THAT(WriteCoverage::fully_written_parameters(*c.module()->functions.front()), ElementsAre(0, 1));
}

TEST(WriteCoverage, PartOfTheArrayIsNotCovered) {
    // The interior of a stencil, all but one element, a shifted index.
    EXPECT_THAT(covered("foreach (int i in n - 2 threads) { a[i + 1] = x[i]; }"), IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n - 1 threads) { a[i] = x[i]; }"), IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) { a[n - 1 - i] = x[i]; }"), IsEmpty());
    // A count that is not the extent, the same index twice, an index of a
    // loop that is not around the assignment.
    EXPECT_THAT(covered("foreach (int i in m threads) { a[i] = 1.0; }"), IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int j in m threads) { b[i, i] = 1.0; } }"),
                IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int j in n threads) { b[i, j] = 1.0; } }"),
                IsEmpty());
    // A loop around the assignment that may run no unit hides it.
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int j in m threads) { a[i] = 1.0; } }"),
                IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int j in 2 threads) { a[i] = 1.0; } }"),
                ElementsAre(2));
    // A single element, and writes outside any loop.
    EXPECT_THAT(covered("a[0] = 1.0;"), IsEmpty());
}

TEST(WriteCoverage, ConditionalWritesAreNotCovered) {
    EXPECT_THAT(covered("foreach (int i in n threads) { if (x[i] > 0.0) { a[i] = 1.0; } }"), IsEmpty());
    EXPECT_THAT(covered("for (int s = 0; s < m; s++) { foreach (int i in n threads) { a[i] = 1.0; } }"),
                IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) { for (int s = 0; s < 0; s++) { a[i] = 1.0; } }"),
                IsEmpty());
    // A for loop of constant iterations runs the assignment (at least once).
    EXPECT_THAT(covered("foreach (int i in n threads) { for (int s = 0; s < 1; s++) { a[i] = 1.0; } }"),
                ElementsAre(2));
    // A unit that may return before its write; a return in another nest
    // ends a unit of that nest only.
    EXPECT_THAT(covered("foreach (int i in n threads) { if (x[i] > 0.0) { return; }\n a[i] = 1.0; }"), IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int j in 4 threads) {\n"
                        "    if (x[i] > 0.0) { return; }\n} a[i] = 1.0; }"),
                ElementsAre(2));
    EXPECT_THAT(covered("foreach (int i in n threads) { if (x[i] > 0.0) { return; } }\n"
                        "foreach (int i in n threads) { a[i] = 1.0; }"),
                ElementsAre(2));
    // A kernel that may return before its loops.
    EXPECT_THAT(covered("if (n > 5) { return; }\nforeach (int i in n threads) { a[i] = 1.0; }"), IsEmpty());
}

TEST(WriteCoverage, WritesThroughASwappedNameAreNotCovered) {
    // After the swap, `a` names the storage of `t`: the array passed as a is
    // not written at all.
    EXPECT_THAT(covered("float[n] t;\nt <=> a;\nforeach (int i in n threads) { a[i] = 1.0; }"), IsEmpty());
    EXPECT_THAT(covered("float[n] t;\nforeach (int i in n threads) { a[i] = 1.0; }\nt <=> a;"), IsEmpty());
}

TEST(WriteCoverage, BlocksOfThreadsGuardedByTheExtent) {
    // The refinement pattern: blocks of threads, an index made of both, a
    // guard against the extent, the block count rounded up.
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 256) threads) { foreach (int t in 256 threads) {\n"
                        "    int i = b * 256 + t;\n    if (i < n) { a[i] = x[i]; }\n} }"),
                ElementsAre(2));
    // Through named constants, with a constant for loop between (four
    // elements a thread, blackscholes_gpu), and the guard written inline.
    EXPECT_THAT(covered("const int threads = 128;\nconst int chunk = threads * 4;\n"
                        "const int nrBlocks = divide_up(n, chunk);\n"
                        "foreach (int b in nrBlocks threads) { foreach (int t in threads threads) {\n"
                        "    for (int r = 0; r < 4; r++) {\n"
                        "        if (b * chunk + r * threads + t < n) { a[b * chunk + r * threads + t] = 1.0; }\n"
                        "    }\n} }"),
                ElementsAre(2));
    // A strided for loop as the middle digit, the guard as `n > i`.
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 64) threads) { foreach (int t in 16 threads) {\n"
                        "    for (int r = 0; r < 64; r += 16) {\n"
                        "        int i = t + r + 64 * b;\n        if (n > i) { a[i] = 1.0; }\n    }\n} }"),
                ElementsAre(2));
    // An index declared without a value and assigned once.
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 64) threads) { foreach (int t in 64 threads) {\n"
                        "    int i;\n    i = b * 64 + t;\n    if (i < n) { a[i] = 1.0; }\n} }"),
                ElementsAre(2));
    // Two dimensions, each of blocks and threads, one guard for both
    // (convolution_gpu).
    EXPECT_THAT(covered("foreach (int bi in divide_up(n, 8) threads) { foreach (int bj in divide_up(m, 32) threads) {\n"
                        "    foreach (int ti in 8 threads) { foreach (int tj in 32 threads) {\n"
                        "        int i = bi * 8 + ti;\n        int j = bj * 32 + tj;\n"
                        "        if (i < n && j < m) { b[i, j] = 1.0; }\n    } }\n} }"),
                ElementsAre(3));
    // Without a guard the last block writes past the end (verify reports
    // that), but every element is still written.
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 32) threads) { foreach (int t in 32 threads) {\n"
                        "    a[b * 32 + t] = 1.0;\n} }"),
                ElementsAre(2));
}

TEST(WriteCoverage, OneUnitOfAnUnusedLoopWrites) {
    // gesummv_gpu: thread 0 of each block writes the block's element.
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int t in 256 threads) {\n"
                        "    if (t == 0) { a[i] = 1.0; }\n} }"),
                ElementsAre(2));
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int t in 256 threads) {\n"
                        "    if (255 == t && i < n) { a[i] = 1.0; }\n} }"),
                ElementsAre(2));
    EXPECT_THAT(covered("foreach (int i in n threads) { for (int s = 2; s < 9; s += 3) {\n"
                        "    if (s > 4) { a[i] = 1.0; }\n} }"),
                ElementsAre(2));
    // No unit of the loop satisfies the condition, or the conditions together.
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int t in 256 threads) {\n"
                        "    if (t == 256) { a[i] = 1.0; }\n} }"),
                IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int t in 256 threads) {\n"
                        "    if (t > 3 && t < 4) { a[i] = 1.0; }\n} }"),
                IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) { for (int s = 0; s < 9; s += 3) {\n"
                        "    if (s == 4) { a[i] = 1.0; }\n} }"),
                IsEmpty());
    // A condition on a loop the index uses, or on data.
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 256) threads) { foreach (int t in 256 threads) {\n"
                        "    if (t < 255) { a[b * 256 + t] = 1.0; }\n} }"),
                IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int t in 256 threads) {\n"
                        "    if (t == 0 || x[i] > 0.0) { a[i] = 1.0; }\n} }"),
                IsEmpty());
    // The else branch runs only where the condition fails.
    EXPECT_THAT(covered("foreach (int i in n threads) { if (i < n) { a[0] = 1.0; } else { a[i] = 1.0; } }"),
                IsEmpty());
}

TEST(WriteCoverage, BothBranchesOfAnIfElseWriteTheElement) {
    EXPECT_THAT(covered("foreach (int i in n threads) { if (x[i] > 0.0) { a[i] = 1.0; } else { a[i] = 0.0; } }"),
                ElementsAre(2));
    EXPECT_THAT(covered("foreach (int i in n threads) {\n"
                        "    if (x[i] > 1.0) { a[i] = 2.0; } else if (x[i] > 0.0) { a[i] = 1.0; } else { a[i] = 0.0; }\n"
                        "}"),
                ElementsAre(2));
    // Inside the guard of a block decomposition (pipeline's threshold).
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 256) threads) { foreach (int t in 256 threads) {\n"
                        "    int i = b * 256 + t;\n"
                        "    if (i < n) { if (x[i] > 0.0) { a[i] = 1.0; } else { a[i] = 0.0; } }\n} }"),
                ElementsAre(2));
    // A guard with an else that writes something else still guards.
    EXPECT_THAT(covered("foreach (int i in n threads) { if (i < n) { a[i] = 1.0; } else { b[0, 0] = 1.0; } }"),
                ElementsAre(2));
    // One branch writes another element, or another array, or nothing.
    EXPECT_THAT(covered("foreach (int i in n threads) { if (x[i] > 0.0) { a[i] = 1.0; } else { a[0] = 1.0; } }"),
                IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) { foreach (int j in m threads) {\n"
                        "    if (x[i] > 0.0) { b[i, j] = 1.0; } else { a[i] = 1.0; }\n} }"),
                IsEmpty());
    EXPECT_THAT(covered("foreach (int i in n threads) {\n"
                        "    if (x[i] > 1.0) { a[i] = 2.0; } else if (x[i] > 0.0) { a[i] = 1.0; }\n}"),
                IsEmpty());
    // A branch's own loop is not the other's: each branch must cover by
    // itself over the loops around the if/else.
    EXPECT_THAT(covered("foreach (int i in n threads) {\n"
                        "    if (x[i] > 0.0) { for (int k = 0; k < 2; k++) { if (k == 1) { a[i] = 1.0; } } }\n"
                        "    else { a[i] = 0.0; }\n}"),
                ElementsAre(2));
    EXPECT_THAT(covered("foreach (int i in n threads) {\n"
                        "    if (x[i] > 0.0) { for (int k = 0; k < 2; k++) { if (k == 2) { a[i] = 1.0; } } }\n"
                        "    else { a[i] = 0.0; }\n}"),
                IsEmpty());
    // A unit that returns in a branch may skip the write.
    EXPECT_THAT(covered("foreach (int i in n threads) {\n"
                        "    if (x[i] > 0.0) { a[i] = 1.0; return; } else { a[i] = 0.0; }\n}"),
                IsEmpty());
}

TEST(WriteCoverage, ConstantIndicesTogetherCoverADimension) {
    std::string text = R"(module cov;
import perfect;
perfect void k(int n, float[n, 3] acc, float[n, 3] part, float[4, 3] grid, float[2] pair, float[n, 3] guarded,
               float[n] wide) {
    foreach (int i in n threads) {
        acc[i, 0] = 1.0;
        acc[i, 2] = 3.0;
        acc[i, 1] = 2.0;
        part[i, 0] = 1.0;
        part[i, 2] = 3.0;
        if (i > 0) {
            guarded[i, 0] = 1.0;
        }
        guarded[i, 1] = 1.0;
        guarded[i, 2] = 1.0;
    }
    foreach (int j in 3 threads) {
        grid[3, j] = 1.0;
        grid[0, j] = 1.0;
        grid[2, j] = 1.0;
        grid[1, j] = 1.0;
    }
    pair[1] = 1.0;
    pair[0] = 1.0;
    wide[0] = 1.0;
}
)";
    mcpl::testing::CheckedText c = mcpl::testing::check_text(text);
    ASSERT_FALSE(c.diags->has_errors()) << c.text();
    // part misses column 1, guarded column 0 of row 0, wide all but one
    // element of an extent that is not constant.
    EXPECT_THAT(WriteCoverage::fully_written_parameters(*c.module()->functions.front()), ElementsAre(1, 3, 4));
}

// The fully written parameter positions of the last function of a module
// at `perfect` made of `functions`.
std::set<size_t> covered_last(const std::string& functions) {
    mcpl::testing::CheckedText c = mcpl::testing::check_text("module cov;\nimport perfect;\n" + functions);
    EXPECT_FALSE(c.diags->has_errors()) << c.text();
    if (!c.module() || c.module()->functions.empty()) return {};
    return WriteCoverage::fully_written_parameters(*c.module()->functions.back());
}

TEST(WriteCoverage, CallsWriteWhatTheCalleeWritesEverywhere) {
    std::string fill = "perfect void fill(int len, float[len] a, float[len] half) {\n"
                       "    foreach (int i in len threads) { a[i] = 1.0; }\n"
                       "    foreach (int i in len / 2 threads) { half[i] = 1.0; }\n}\n";
    std::string grid = "perfect void grid(int rows, int cols, float[rows, cols] g, float[rows, 3] c) {\n"
                       "    foreach (int i in rows threads) { foreach (int j in cols threads) { g[i, j] = 1.0; }\n"
                       "        c[i, 0] = 0.0; c[i, 1] = 0.0; c[i, 2] = 0.0; }\n}\n";
    auto caller = [](const std::string& body) {
        return "perfect void k(int n, int m, float[n] x, float[n] y, float[n, m] b, float[n, 3] c) {\n" + body +
               "\n}\n";
    };
    EXPECT_THAT(covered_last(fill + caller("fill(n, x, y);")), ElementsAre(2));
    EXPECT_THAT(covered_last(grid + caller("grid(n, m, b, c);")), ElementsAre(4, 5));
    // After another statement, or through a call that calls.
    EXPECT_THAT(covered_last(fill + caller("int k = n;\nfill(k, x, y);")), ElementsAre(2));
    EXPECT_THAT(covered_last(fill + "perfect void twice(int len, float[len] a, float[len] b) {\n"
                                    "    fill(len, a, b);\n}\n" + caller("twice(n, y, x);")),
                ElementsAre(3));
    // Other extents: a smaller size, sizes swapped, a constant that differs.
    EXPECT_THAT(covered_last(fill + caller("fill(n - 1, x, y);")), IsEmpty());
    EXPECT_THAT(covered_last(grid + caller("grid(m, n, b, c);")), IsEmpty());
    EXPECT_THAT(covered_last("perfect void four(float[4, 4] g) {\n"
                             "    foreach (int i in 4 threads) { foreach (int j in 4 threads) { g[i, j] = 1.0; } }\n}\n"
                             "perfect void k(float[4, 4] g, float[4, 4] h) { four(g); }\n"),
                ElementsAre(0));
    // Under a condition, in a loop, or after a return that may end the kernel.
    EXPECT_THAT(covered_last(fill + caller("if (n > 4) { fill(n, x, y); }")), IsEmpty());
    EXPECT_THAT(covered_last(fill + caller("for (int r = 0; r < 2; r++) { fill(n, x, y); }")), IsEmpty());
    EXPECT_THAT(covered_last(fill + caller("if (m > 4) { return; }\nfill(n, x, y);")), IsEmpty());
    // The same call in both branches of an if/else.
    EXPECT_THAT(covered_last(fill + caller("if (m > 4) { fill(n, x, y); } else { int k = n;\n fill(k, x, y); }")),
                ElementsAre(2));
}

TEST(WriteCoverage, QuotientAndRemainderIndexAPairOfDimensions) {
    // nbody_gpu's staged store: three rounds of 256 threads write the 768
    // floats of 256 rows of three.
    auto staged = [](const std::string& rounds, const std::string& e, const std::string& row,
                     const std::string& column, const std::string& guard) {
        return covered_last("perfect void k(int n, float[n, 3] acc) {\n"
                            "    foreach (int b in divide_up(n, 256) threads) { foreach (int t in 256 threads) {\n"
                            "        for (int r = 0; r < " + rounds + "; r++) {\n"
                            "            int e = " + e + ";\n            int row = " + row + ";\n"
                            "            if (" + guard + ") { acc[row, " + column + "] = 1.0; }\n"
                            "        }\n    } }\n}\n");
    };
    EXPECT_THAT(staged("3", "r * 256 + t", "b * 256 + e / 3", "e % 3", "row < n"), ElementsAre(1));
    EXPECT_THAT(staged("3", "t + r * 256", "e / 3 + 256 * b", "e % 3", "n > row"), ElementsAre(1));
    // Too few rounds, a divisor that is not the extent, a row bound that is
    // tighter, an x that may be negative, a shifted row.
    EXPECT_THAT(staged("2", "r * 256 + t", "b * 256 + e / 3", "e % 3", "row < n"), IsEmpty());
    EXPECT_THAT(staged("3", "r * 256 + t", "b * 256 + e / 4", "e % 3", "row < n"), IsEmpty());
    EXPECT_THAT(staged("3", "r * 256 + t", "b * 256 + e / 3", "e % 4", "row < n"), IsEmpty());
    EXPECT_THAT(staged("3", "r * 256 + t", "b * 256 + e / 3", "e % 3", "row < n - 1"), IsEmpty());
    EXPECT_THAT(staged("3", "r * 256 + t - 1", "b * 256 + e / 3", "e % 3", "row < n"), IsEmpty());
    // (x / 3 and x % 3 of a negative x do not place it in the pair.)
    EXPECT_THAT(staged("3", "r * 256 + t - 3", "b * 256 + 1 + e / 3", "e % 3", "row < n"), IsEmpty());
    EXPECT_THAT(staged("3", "r * 256 + t", "b * 256 + e / 3 + 1", "e % 3", "row < n"), IsEmpty());
    EXPECT_THAT(staged("3", "r * 256 + t", "b * 256 + e / 3", "(e + 1) % 3", "row < n"), IsEmpty());
    // One loop over every element of the pair.
    auto flat = [](const std::string& count, const std::string& store) {
        return covered_last("perfect void k(int n, float[n, 3] acc) {\n    foreach (int e in " + count +
                            " threads) { " + store + " }\n}\n");
    };
    EXPECT_THAT(flat("n * 3", "acc[e / 3, e % 3] = 1.0;"), ElementsAre(1));
    EXPECT_THAT(flat("3 * n", "acc[e / 3, e % 3] = 1.0;"), ElementsAre(1));
    EXPECT_THAT(flat("n * 2", "acc[e / 3, e % 3] = 1.0;"), IsEmpty());
    EXPECT_THAT(flat("n * 3", "acc[e / 3, 2 - e % 3] = 1.0;"), IsEmpty());
}

TEST(WriteCoverage, BlockDecompositionsThatMissElements) {
    auto blocks = [](const std::string& count, const std::string& threads, const std::string& index,
                     const std::string& guard) {
        return covered("foreach (int b in " + count + " threads) { foreach (int t in " + threads +
                       " threads) {\n    int i = " + index + ";\n    if (" + guard + ") { a[i] = 1.0; }\n} }");
    };
    EXPECT_THAT(blocks("divide_up(n, 256)", "256", "b * 256 + t", "i < n"), ElementsAre(2));
    // Too few blocks: n / 256 rounds down, the count rounds up for 128.
    EXPECT_THAT(blocks("n / 256", "256", "b * 256 + t", "i < n"), IsEmpty());
    EXPECT_THAT(blocks("divide_up(n, 128)", "256", "b * 256 + t", "i < n"), IsEmpty());
    EXPECT_THAT(blocks("divide_up(m, 256)", "256", "b * 256 + t", "i < n"), IsEmpty());
    // Gaps between blocks, overlapping blocks, a shifted index.
    EXPECT_THAT(blocks("divide_up(n, 256)", "128", "b * 256 + t", "i < n"), IsEmpty());
    EXPECT_THAT(blocks("divide_up(n, 256)", "256", "b * 128 + t", "i < n"), IsEmpty());
    EXPECT_THAT(blocks("divide_up(n, 256)", "256", "b * 256 + t + 1", "i < n"), IsEmpty());
    EXPECT_THAT(blocks("divide_up(n, 256)", "256", "b * 256 - t", "i < n"), IsEmpty());
    EXPECT_THAT(blocks("divide_up(n, 256)", "256", "b * 256 + t * 2", "i < n"), IsEmpty());
    // A guard tighter than the extent, or not a guard of this index.
    EXPECT_THAT(blocks("divide_up(n, 256)", "256", "b * 256 + t", "i < n - 1"), IsEmpty());
    EXPECT_THAT(blocks("divide_up(n, 256)", "256", "b * 256 + t", "i <= n - 1"), IsEmpty());
    EXPECT_THAT(blocks("divide_up(n, 256)", "256", "b * 256 + t", "i < m"), IsEmpty());
    EXPECT_THAT(blocks("divide_up(n, 256)", "256", "b * 256 + t", "b * 256 < n"), IsEmpty());
    // The block count of a variable the kernel writes is not known to stay
    // what it was.
    EXPECT_THAT(covered("int nb = divide_up(n, 256);\nnb = nb - 1;\n"
                        "foreach (int b in nb threads) { foreach (int t in 256 threads) {\n"
                        "    int i = b * 256 + t;\n    if (i < n) { a[i] = 1.0; }\n} }"),
                IsEmpty());
    // Nor is an index the kernel writes.
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 256) threads) { foreach (int t in 256 threads) {\n"
                        "    int i = b * 256 + t;\n    i = i + 1;\n    if (i < n) { a[i] = 1.0; }\n} }"),
                IsEmpty());
    // Nor one assigned twice, or assigned only under a condition.
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 64) threads) { foreach (int t in 64 threads) {\n"
                        "    int i;\n    i = b * 64 + t;\n    i = 0;\n    if (i < n) { a[i] = 1.0; }\n} }"),
                IsEmpty());
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 64) threads) { foreach (int t in 64 threads) {\n"
                        "    int i = 0;\n    if (x[0] > 0.0) { i = b * 64 + t; }\n    if (i < n) { a[i] = 1.0; }\n"
                        "} }"),
                IsEmpty());
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 64) threads) { foreach (int t in 64 threads) {\n"
                        "    int i;\n    { i = b * 64 + t; }\n    if (i < n) { a[i] = 1.0; }\n} }"),
                IsEmpty());
    // A for loop whose iterations are not constant.
    EXPECT_THAT(covered("foreach (int b in divide_up(n, 256) threads) { foreach (int t in 64 threads) {\n"
                        "    for (int r = 0; r < m; r++) {\n"
                        "        int i = b * 256 + r * 64 + t;\n        if (i < n) { a[i] = 1.0; }\n    }\n} }"),
                IsEmpty());
    // One loop for both dimensions: the diagonal.
    EXPECT_THAT(covered("foreach (int g in divide_up(n, 8) threads) { foreach (int t in 8 threads) {\n"
                        "    int i = g * 8 + t;\n    if (i < n && i < m) { b[i, i] = 1.0; }\n} }"),
                IsEmpty());
}

// The fully written parameter positions of `kernel`, a module at `perfect`
// with the records Particle and Holder.
std::set<size_t> covered_records(const std::string& kernel) {
    std::string text = "module cov;\nimport perfect;\n"
                       "type Particle { byte kind; float[3] position; double mass; }\n"
                       "type Holder { Particle[2] pair; int tag; }\n" +
                       kernel + "\n";
    mcpl::testing::CheckedText c = mcpl::testing::check_text(text);
    EXPECT_FALSE(c.diags->has_errors()) << c.text();
    if (!c.module() || c.module()->functions.empty()) return {};
    return WriteCoverage::fully_written_parameters(*c.module()->functions.front());
}

TEST(WriteCoverage, RecordsAreCoveredFieldByField) {
    std::string head = "perfect void k(int n, const Particle[n] src, Particle[n] out) {\n"
                       "    foreach (int i in n threads) {\n";
    EXPECT_THAT(covered_records(head + "out[i] = src[i];\n} }"), ElementsAre(2));
    EXPECT_THAT(covered_records(head + "out[i].kind = src[i].kind;\nout[i].mass = 1.0;\n"
                                       "for (int d = 0; d < 3; d++) { out[i].position[d] = 0.0; }\n} }"),
                ElementsAre(2));
    // A field left out, part of an array field, a field written at one index.
    EXPECT_THAT(covered_records(head + "out[i].kind = src[i].kind;\n"
                                       "for (int d = 0; d < 3; d++) { out[i].position[d] = 0.0; }\n} }"),
                IsEmpty());
    EXPECT_THAT(covered_records(head + "out[i].kind = src[i].kind;\nout[i].mass = 1.0;\n"
                                       "for (int d = 0; d < 2; d++) { out[i].position[d] = 0.0; }\n} }"),
                IsEmpty());
    EXPECT_THAT(covered_records(head + "out[i].kind = src[i].kind;\nout[i].mass = 1.0;\n"
                                       "out[i].position[0] = 0.0;\n} }"),
                IsEmpty());
    // Records in records: each element of the array field, field by field.
    std::string holders = "perfect void k(int n, const Particle[n] src, Holder[n] out) {\n"
                          "    foreach (int i in n threads) {\n        out[i].tag = 1;\n";
    EXPECT_THAT(covered_records(holders + "for (int p = 0; p < 2; p++) { out[i].pair[p] = src[i]; }\n} }"),
                ElementsAre(2));
    EXPECT_THAT(covered_records(holders + "foreach (int p in 2 threads) {\n    out[i].pair[p].kind = 1;\n"
                                          "    out[i].pair[p].mass = 1.0;\n"
                                          "    for (int d = 0; d < 3; d++) { out[i].pair[p].position[d] = 0.0; }\n"
                                          "}\n} }"),
                ElementsAre(2));
    EXPECT_THAT(covered_records(holders + "out[i].pair[0] = src[i];\n} }"), IsEmpty());
    // Each index of a field's dimension written on its own.
    EXPECT_THAT(covered_records(holders + "out[i].pair[0] = src[i];\nout[i].pair[1] = src[i];\n} }"),
                ElementsAre(2));
    EXPECT_THAT(covered_records(head + "out[i].kind = 1;\nout[i].mass = 1.0;\nout[i].position[0] = 0.0;\n"
                                       "out[i].position[2] = 0.0;\nout[i].position[1] = 0.0;\n} }"),
                ElementsAre(2));
}

TEST(WriteCoverage, NothingIsProvenByDefault) {
    mcpl::testing::CheckedText c =
        mcpl::testing::check_text("module cov;\nimport perfect;\nperfect void k(int n, float[n] a) {\n"
                                  "    foreach (int i in n threads) { a[i] = 1.0; }\n}\n");
    ASSERT_FALSE(c.diags->has_errors()) << c.text();
    const mcpl::Function& k = *c.module()->functions.front();
    EXPECT_TRUE(WriteCoverage::of(*c.module()).fully_written(k, 1));
    EXPECT_FALSE(WriteCoverage().fully_written(k, 1));
}

}  // namespace
}  // namespace mcl::backends
