// Lowering returns inside foreach loops: the printed result of each shape
// (a return in a branch, in a for loop whose step counts or does more, in
// nested foreach loops, a flag name the user took), the program checks
// afterwards, a loop over a record is refused, and functions without such
// returns are left as they are.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "compiler/lower/LowerUnitReturns.h"
#include "compiler/print/PrintMcpl.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::mcpl::testing {
namespace {

using ::testing::HasSubstr;

// The module `text` lowered and printed; "" after a failure, with the
// diagnostics in `errors`.
std::string lowered(const std::string& text, std::string* errors = nullptr) {
    CheckedText c = check_text(text);
    bool ok = !c.diags->has_errors() && lower::lower_unit_returns(c.program, *c.library, *c.diags);
    if (errors) *errors = c.text();
    if (!ok) {
        if (!errors) ADD_FAILURE() << c.text();
        return "";
    }
    return print_module(*c.module());
}

TEST(LowerUnitReturns, LaterStatementsRunUnderTheFlag) {
    std::string out = lowered(R"(module t;
import perfect;
perfect void f(int n, const float[n] a, float[n] o) {
    foreach (int i in n threads) {
        o[i] = 1.0;
        if (a[i] > 0.0) {
            return;
        }
        o[i] = a[i] * 2.0;
    }
}
)");
    EXPECT_THAT(out, HasSubstr(R"(    foreach (int i in n threads) {
        bool unit_returned = false;
        o[i] = 1.0;
        if (a[i] > 0.0) {
            unit_returned = true;
        }
        if (!unit_returned) {
            o[i] = a[i] * 2.0;
        }
    }
)")) << out;
}

TEST(LowerUnitReturns, ACountingLoopStopsOnTheFlag) {
    std::string out = lowered(R"(module t;
import perfect;
perfect void f(int n, const float[n] a, float[n] o) {
    foreach (int i in n threads) {
        for (int r = 0; r < 4; r = r + 1) {
            if (a[i] > toFloat(r)) {
                return;
            }
            o[i] += 1.0;
        }
        o[i] += 10.0;
    }
}
)");
    EXPECT_THAT(out, HasSubstr(R"(        for (int r = 0; !unit_returned && r < 4; r = r + 1) {
            if (a[i] > toFloat(r)) {
                unit_returned = true;
            }
            if (!unit_returned) {
                o[i] += 1.0;
            }
        }
        if (!unit_returned) {
            o[i] += 10.0;
        }
)")) << out;
}

// Once the unit returned, `j = next[j]` would read past the list: the step
// runs in the body under the flag, and the header's leaves `j` as it is.
TEST(LowerUnitReturns, AStepThatReadsMemoryMovesIntoTheBody) {
    std::string out = lowered(R"(module t;
import perfect;
perfect void f(int n, const int[n] next, int[n] found) {
    foreach (int i in n threads) {
        for (int j = i; j >= 0; j = next[j]) {
            if (j == 0) {
                found[i] = j;
                return;
            }
        }
        found[i] = -1;
    }
}
)");
    EXPECT_THAT(out, HasSubstr(R"(        for (int j = i; !unit_returned && j >= 0; j *= 1) {
            if (j == 0) {
                found[i] = j;
                unit_returned = true;
            }
            if (!unit_returned) {
                j = next[j];
            }
        }
)")) << out;
}

TEST(LowerUnitReturns, ABoolLoopKeepsItsValue) {
    std::string out = lowered(R"(module t;
import perfect;
perfect void f(int n, const int[n] a, int[n] o) {
    foreach (int i in n threads) {
        for (bool go = true; go; go = a[i] > 3) {
            o[i] += 1;
            if (o[i] > 2) {
                return;
            }
        }
    }
}
)");
    EXPECT_THAT(out, HasSubstr("for (bool go = true; !unit_returned && go; go = !!go) {")) << out;
    EXPECT_THAT(out, HasSubstr(R"(            if (!unit_returned) {
                go = a[i] > 3;
            }
)")) << out;
}

// A return in the inner loop ends its unit only: the outer unit goes on,
// with a flag of its own that differs from every name the user declared.
TEST(LowerUnitReturns, NestedLoopsHaveFlagsOfTheirOwn) {
    std::string out = lowered(R"(module t;
import gpu;
gpu void f(int n, const float[n] a, float[n] o) {
    foreach (int b in divide_up(n, 64) blocks) {
        int unit_returned = 1;
        foreach (int t in 64 threads) {
            int i = b * 64 + t;
            if (i >= n) {
                return;
            }
            o[i] = a[i] + toFloat(unit_returned);
        }
        if (b % 2 == 1) {
            return;
        }
        foreach (int t in 64 threads) {
            int i = b * 64 + t;
            if (i < n) {
                o[i] += 1.0;
            }
        }
    }
}
)");
    EXPECT_THAT(out, HasSubstr(R"(    foreach (int b in divide_up(n, 64) blocks) {
        bool unit_returned_2 = false;
        int unit_returned = 1;
        foreach (int t in 64 threads) {
            bool unit_returned_3 = false;
            int i = b * 64 + t;
            if (i >= n) {
                unit_returned_3 = true;
            }
            if (!unit_returned_3) {
                o[i] = a[i] + toFloat(unit_returned);
            }
        }
        if (b % 2 == 1) {
            unit_returned_2 = true;
        }
        if (!unit_returned_2) {
            foreach (int t in 64 threads) {
)")) << out;
}

TEST(LowerUnitReturns, ReturnsOutsideForeachLoopsStay) {
    const std::string text = R"(module t;
import perfect;
perfect float half(float x) {
    if (x < 0.0) {
        return 0.0;
    }
    return x / 2.0;
}

perfect void f(int n, float[n] o) {
    if (n < 2) {
        return;
    }
    foreach (int i in n threads) {
        o[i] = half(o[i]);
    }
}
)";
    CheckedText c = check_text(text);
    expect_clean(c);
    std::string before = print_module(*c.module());
    EXPECT_EQ(lowered(text), before);
}

TEST(LowerUnitReturns, ALoopOverARecordIsRefused) {
    std::string errors;
    EXPECT_EQ(lowered(R"(module t;
import perfect;
type Pair { int a; int b; }
perfect Pair next(Pair p) {
    Pair q;
    q.a = p.b;
    q.b = p.a + p.b;
    return q;
}
perfect void f(int n, int[n] o) {
    foreach (int i in n threads) {
        Pair start;
        start.a = 0;
        start.b = 1;
        for (Pair p = start; p.a < 100; p = next(p)) {
            if (p.a == i) {
                return;
            }
            o[i] += 1;
        }
    }
}
)",
                      &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("t.mcl:15:41: error: a for loop over a Pair whose body returns from the unit and "
                                  "whose step does more than count is not supported by the backends"));
}

TEST(LowerUnitReturns, AReturnInsideAForeachCannotCarryAValue) {
    expect_error(R"(module t;
import perfect;
perfect int f(int n, float[n] o) {
    foreach (int i in n threads) {
        o[i] = 1.0;
        return 3;
    }
    return 4;
}
)",
                 "t.mcl:6:16: error: a return inside a foreach ends only the unit that runs it; it cannot return a "
                 "value from 'f'");
}

}  // namespace
}  // namespace mcl::mcpl::testing
