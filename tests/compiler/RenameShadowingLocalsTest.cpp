// Renaming locals that hide a name: a local hiding a parameter, a module
// constant or an outer local gets a fresh name and so does every use bound
// to it; a declaration that reads the name it hides keeps reading the outer
// variable; locals in sibling scopes and names that hide nothing stay.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "compiler/lower/RenameShadowingLocals.h"
#include "compiler/print/PrintMcpl.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::mcpl::testing {
namespace {

using ::testing::HasSubstr;

std::string renamed(const std::string& text) {
    CheckedText c = check_text(text);
    expect_clean(c);
    bool ok = !c.diags->has_errors() && lower::rename_shadowing_locals(c.program, *c.library, *c.diags);
    EXPECT_TRUE(ok) << c.text();
    return ok ? print_module(*c.module()) : "";
}

TEST(RenameShadowingLocals, LocalsThatHideANameGetFreshOnes) {
    std::string out = renamed(R"(module t;
import perfect;

const int W = 3;

perfect void f(int n, int m, float[n, m] o, float[n, W] side) {
    foreach (int i in n threads) {
        int m = m - 1 - i % 2;
        o[i, m] = 5.0;
        for (int W = 0; W < 2; W++) {
            side[i, W] = toFloat(W);
        }
        {
            int i = 0;
            side[i, 2] = 1.0;
        }
    }
    foreach (int i in n threads) {
        o[i, 0] += 1.0;
    }
}
)");
    EXPECT_THAT(out, HasSubstr(R"(    foreach (int i in n threads) {
        int m_2 = m - 1 - i % 2;
        o[i, m_2] = 5.0;
        for (int W_2 = 0; W_2 < 2; W_2++) {
            side[i, W_2] = toFloat(W_2);
        }
        {
            int i_2 = 0;
            side[i_2, 2] = 1.0;
        }
    }
    foreach (int i in n threads) {
        o[i, 0] += 1.0;
    }
)")) << out;
}

TEST(RenameShadowingLocals, ProgramsWithoutHidingNamesStay) {
    const std::string text = R"(module t;
import perfect;
perfect void f(int n, float[n] o) {
    foreach (int i in n threads) {
        int k = i * 2;
        o[i] = toFloat(k);
    }
    foreach (int i in n threads) {
        int k = i;
        o[i] += toFloat(k);
    }
}
)";
    CheckedText c = check_text(text);
    std::string before = print_module(*c.module());
    EXPECT_EQ(renamed(text), before);
}

}  // namespace
}  // namespace mcl::mcpl::testing
