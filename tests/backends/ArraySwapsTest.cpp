// Which swaps of whole arrays the C-family backends write as pointer swaps
// (ArraySwaps.h): those made by exactly the units the arrays belong to, of
// two arrays of one memory space, by their declared names; and which
// arrays stay pointers because a view names them or one swapped with them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "backends/cfamily/ArraySwaps.h"
#include "compiler/ast/AstWalk.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::backends {
namespace {

using ::testing::HasSubstr;

struct Planned {
    mcpl::testing::CheckedText checked;
    ArraySwapPlan plan;
    std::vector<const mcpl::Stmt*> swaps;  // in source order

    // The array declared (or passed) as `name`.
    const mcpl::Decl* array(const std::string& name) const {
        for (const mcpl::Decl* d : plan.redirected)
            if (d->name() == name) return d;
        return nullptr;
    }
    std::string refusal(size_t swap) const {
        auto it = plan.refused.find(swaps.at(swap));
        return it == plan.refused.end() ? "" : it->second;
    }
};

// `body` inside a gpu kernel with parameters float[n] a, b.
Planned plan(const std::string& body) {
    Planned p{mcpl::testing::check_text("module m;\nimport gpu;\ngpu void k(int n, float[n] a, float[n] b) {\n" +
                                        body + "\n}\n"),
              {}, {}};
    EXPECT_EQ(p.checked.diags->error_count(), 0u) << p.checked.text();
    const mcpl::Function& k = *p.checked.module()->functions.front();
    p.plan = plan_array_swaps({&k});
    mcpl::for_each_stmt(*k.body, [&](const mcpl::Stmt& s) {
        if (s.kind == mcpl::Stmt::Kind::Swap) p.swaps.push_back(&s);
    });
    return p;
}

TEST(ArraySwaps, ArraysOfTheUnitThatSwapsThemArePointers) {
    Planned p = plan(R"(
    a <=> b;
    foreach (int g in n blocks) {
        local float[64] cur;
        local float[64] next;
        for (int s = 0; s < 3; s++) { cur <=> next; }
        foreach (int t in 64 threads) {
            float[4] x;
            float[4] y;
            if (t > 2) { x <=> y; }
        }
    })");
    ASSERT_EQ(p.swaps.size(), 3u);
    EXPECT_TRUE(p.plan.refused.empty());
    for (const char* name : {"a", "b", "cur", "next", "x", "y"}) EXPECT_NE(p.array(name), nullptr) << name;
    EXPECT_TRUE(p.plan.viewed.empty());
}

TEST(ArraySwaps, ASwapThatEveryUnitOfALoopWouldMakeIsRefused) {
    Planned p = plan(R"(
    foreach (int g in n blocks) {
        local float[64] cur;
        local float[64] next;
        foreach (int t in 64 threads) {
            if (t == 0) { cur <=> next; }
        }
        a <=> b;
    })");
    ASSERT_EQ(p.swaps.size(), 2u);
    EXPECT_THAT(p.refusal(0), HasSubstr("('cur', outside the foreach at line 8,"));
    EXPECT_THAT(p.refusal(1), HasSubstr("('a', outside the foreach at line 5,"));
    EXPECT_TRUE(p.plan.redirected.empty());
}

// Tiles trade elements (no plan entry), views and arrays of two spaces are
// refused.
TEST(ArraySwaps, ViewsAndArraysOfTwoSpacesAreRefusedTilesTradeElements) {
    Planned p = plan(R"(
    foreach (int g in n blocks) {
        local float[2][4] s;
        local float[8] flat;
        dev float[8] far;
        s[0] <=> s[1];
        s as float[8] viewed;
        flat <=> viewed;
        flat <=> far;
        dev float[2, 4] d;
        dev float[2, 4] e;
        d <=> e;
    })");
    ASSERT_EQ(p.swaps.size(), 4u);
    EXPECT_EQ(p.refusal(0), "");
    EXPECT_EQ(p.array("s"), nullptr);
    EXPECT_THAT(p.refusal(1), HasSubstr("swaps of views (`as`)"));
    EXPECT_THAT(p.refusal(2), HasSubstr("swaps of arrays of two memory spaces ('local' and 'dev')"));
    EXPECT_EQ(p.refusal(3), "");
    EXPECT_NE(p.array("d"), nullptr);
    EXPECT_EQ(p.array("flat"), nullptr);
}

TEST(ArraySwaps, AViewKeepsItsArrayAndThoseSwappedWithItPointers) {
    Planned p = plan(R"(
    foreach (int g in n blocks) {
        foreach (int t in 1 threads) {
            float[4] u;
            float[4] v;
            float[4] w;
            float[4] p;
            float[4] q;
            u as float[2, 2] square;
            v <=> w;
            u <=> v;
            p <=> q;
        }
    })");
    ASSERT_EQ(p.swaps.size(), 3u);
    EXPECT_TRUE(p.plan.refused.empty());
    // u is viewed; v is swapped with u, w with v: all three stay pointers.
    for (const char* name : {"u", "v", "w"}) EXPECT_TRUE(p.plan.viewed.count(p.array(name))) << name;
    for (const char* name : {"p", "q"}) EXPECT_FALSE(p.plan.viewed.count(p.array(name))) << name;
}

}  // namespace
}  // namespace mcl::backends
