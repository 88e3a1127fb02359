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
    EXPECT_THAT(covered("foreach (int i in n threads) { for (int s = 0; s < 1; s++) { a[i] = 1.0; } }"),
                IsEmpty());
    // A kernel that may return before its loops.
    EXPECT_THAT(covered("if (n > 5) { return; }\nforeach (int i in n threads) { a[i] = 1.0; }"), IsEmpty());
}

TEST(WriteCoverage, WritesThroughASwappedNameAreNotCovered) {
    // After the swap, `a` names the storage of `t`: the array passed as a is
    // not written at all.
    EXPECT_THAT(covered("float[n] t;\nt <=> a;\nforeach (int i in n threads) { a[i] = 1.0; }"), IsEmpty());
    EXPECT_THAT(covered("float[n] t;\nforeach (int i in n threads) { a[i] = 1.0; }\nt <=> a;"), IsEmpty());
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
