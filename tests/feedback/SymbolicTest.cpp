// Symbolic quantities and the access analysis the passes share.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "feedback/LoopNest.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::feedback {
namespace {

TEST(LoopNest, MatmulAccessesAndLoops) {
    auto c = mcpl::testing::check_text(R"(module m;
import perfect;
perfect void matmul(int n, int m, int p, float[n,m] c, const float[n,p] a, const float[p,m] b) {
    foreach (int i in n threads) {
        foreach (int j in m threads) {
            float sum = 0.0;
            for (int k = 0; k < p; k++) {
                sum += a[i,k] * b[k,j];
            }
            c[i,j] += sum;
        }
    }
}
)");
    ASSERT_EQ(c.text(), "");
    Params params{{"n", 2}, {"m", 3}, {"p", 4}};
    Symbols symbols(params);
    std::vector<Access> accesses = collect_accesses(*c.module()->functions[0], symbols);
    ASSERT_EQ(accesses.size(), 3u);
    EXPECT_EQ(accesses[0].variable->name(), "a");
    EXPECT_TRUE(accesses[0].read);
    EXPECT_FALSE(accesses[0].written);
    ASSERT_EQ(accesses[0].loops.size(), 3u);
    EXPECT_TRUE(accesses[0].loops[0].is_foreach);
    EXPECT_EQ(Symbols::text(*accesses[0].loops[2].iterations), "p");
    EXPECT_EQ(accesses[2].variable->name(), "c");
    EXPECT_TRUE(accesses[2].read && accesses[2].written) << "+= reads and writes";
    EXPECT_FALSE(accesses[2].approximate);
    GiNaC::ex total = *accesses[0].loops[0].iterations * *accesses[0].loops[1].iterations *
                      *accesses[0].loops[2].iterations;
    NamedQuantity q = symbols.quantity("accesses", total);
    EXPECT_EQ(Symbols::text(q.expr), "m*n*p");
    ASSERT_TRUE(q.value);
    EXPECT_DOUBLE_EQ(*q.value, 24.0);
}

TEST(LoopNest, ConditionsAndUnknownBoundsAreApproximate) {
    auto c = mcpl::testing::check_text(R"(module m;
import perfect;
perfect void f(int n, float[n] a, const int[n] idx) {
    foreach (int i in n threads) {
        if (i > 2) { a[i] = 1.0; }
        for (int k = 0; k < idx[i]; k++) { a[k] = 2.0; }
    }
}
)");
    ASSERT_EQ(c.text(), "");
    Params params;
    Symbols symbols(params);
    std::vector<Access> accesses = collect_accesses(*c.module()->functions[0], symbols);
    ASSERT_EQ(accesses.size(), 3u);
    EXPECT_TRUE(accesses[0].approximate) << "under an if";
    EXPECT_EQ(accesses[1].variable->name(), "idx");
    EXPECT_FALSE(accesses[2].loops.back().iterations.has_value()) << "the bound reads an array";
    EXPECT_TRUE(accesses[2].approximate);
    EXPECT_EQ(symbols.missing_values(GiNaC::ex(symbols.symbol("n"))), std::vector<std::string>{"n"});
}

// A module's constant stands for its value, computed from other constants
// if need be: no --param can set it.
TEST(LoopNest, ModuleConstantsAreTheirValues) {
    auto c = mcpl::testing::check_text(R"(module m;
import perfect;
const int HALF = 64;
const int ROWS = HALF * 2;
perfect void f(int n, float[ROWS, n] a) {
    foreach (int r in ROWS threads) {
        for (int k = 0; k < n; k++) { a[r, k] = 1.0; }
    }
}
)");
    ASSERT_EQ(c.text(), "");
    Params params;
    Symbols symbols(params);
    std::vector<Access> accesses = collect_accesses(*c.module()->functions[0], symbols);
    ASSERT_EQ(accesses.size(), 1u);
    ASSERT_EQ(accesses[0].loops.size(), 2u);
    GiNaC::ex total = *accesses[0].loops[0].iterations * *accesses[0].loops[1].iterations;
    EXPECT_EQ(Symbols::text(total), "128*n");
    EXPECT_EQ(symbols.missing_values(total), std::vector<std::string>{"n"});
}

}  // namespace
}  // namespace mcl::feedback
