// Inlining a kernel's host-level calls of other kernels: the printed result
// (parameters bound by value, or renamed to the argument passed by
// reference or to a variable of the caller that nothing writes, the
// callee's names made fresh, calls in the callee inlined in
// turn, hidden names of fixed value replaced by it), and the calls that
// stay: a callee that returns outside its foreach loops, one that would see
// an argument in another shape (a hidden module constant in its extents
// compared by value), and a call inside a foreach; parameters' `as` views
// made views of the arguments where they are read; and why a call stays,
// which the grid backends that refuse it say in a note.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "compiler/lower/InlineKernelCalls.h"
#include "compiler/print/PrintMcpl.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::mcpl::testing {
namespace {

using ::testing::HasSubstr;

// The module `text` with its kernel calls inlined, printed.
std::string inlined(const std::string& text) {
    CheckedText c = check_text(text);
    expect_clean(c);
    bool ok = !c.diags->has_errors() && lower::inline_kernel_calls(c.program, *c.library, *c.diags);
    EXPECT_TRUE(ok) << c.text();
    return ok ? print_module(*c.module()) : "";
}

// A callee for the tests: scales x by `by` and counts the calls in `calls`.
const std::string kScale = R"(module t;
import perfect;

const int TILE = 4;

perfect void scale(int n, float[n] x, float by, int calls) {
    float twice = by * 2.0;
    foreach (int i in n threads) {
        x[i] = x[i] * twice + toFloat(TILE);
    }
    calls = calls + 1;
}
)";

TEST(InlineKernelCalls, ParametersAreBoundAndNamesFresh) {
    std::string out = inlined(kScale + R"(
perfect void f(int m, float[m] a, float twice) {
    int count = 0;
    scale(m, a, twice + 1.0, count);
    foreach (int i in 1 threads) {
        a[i] = toFloat(count);
    }
}
)");
    EXPECT_THAT(out, HasSubstr(R"(perfect void f(int m, float[m] a, float twice) {
    int count = 0;
    const float by = twice + 1.0;
    float twice_2 = by * 2.0;
    foreach (int i_2 in m threads) {
        a[i_2] = a[i_2] * twice_2 + toFloat(TILE);
    }
    count = count + 1;
    foreach (int i in 1 threads) {
)")) << out;
}

TEST(InlineKernelCalls, AScalarTheCallerWritesIsBoundToItsValueAtTheCall) {
    std::string out = inlined(kScale + R"(
perfect void f(int n, float[n] a, int[1] counts) {
    int k = n / 2;
    int calls = 0;
    scale(k, a, 2.0, calls);
    k = calls;
    counts[0] = k;
}
)");
    EXPECT_THAT(out, HasSubstr(R"(    int calls = 0;
    const int n_2 = k;
    const float by = 2.0;
    float twice = by * 2.0;
    foreach (int i in n_2 threads) {)")) << out;
}

TEST(InlineKernelCalls, CallsInTheCalleeAreInlinedInTurn) {
    std::string out = inlined(kScale + R"(
perfect void twice(int n, float[n] x) {
    int calls = 0;
    scale(n, x, 2.0, calls);
}

perfect void f(int n, float[n] a) {
    for (int r = 0; r < 2; r++) {
        twice(n, a);
    }
}
)");
    EXPECT_THAT(out, HasSubstr(R"(perfect void f(int n, float[n] a) {
    for (int r = 0; r < 2; r++) {
        int calls = 0;
        const float by = 2.0;
        float twice_2 = by * 2.0;
        foreach (int i in n threads) {
            a[i] = a[i] * twice_2 + toFloat(TILE);
        }
        calls = calls + 1;
    }
}
)")) << out;
}

TEST(InlineKernelCalls, HiddenNamesOfFixedValueAreReplacedByTheirValues) {
    // the caller's TILE hides the module constant the callee reads
    std::string out = inlined(kScale + R"(
perfect void f(int n, float[n] a) {
    int TILE = 7;
    int calls = 0;
    scale(n, a, toFloat(TILE), calls);
}
)");
    EXPECT_THAT(out, HasSubstr(R"(    const float by = toFloat(TILE);
    float twice = by * 2.0;
    foreach (int i in n threads) {
        a[i] = a[i] * twice + toFloat(4);
    }
)")) << out;
    // a module constant in the callee's extent, compared by its value; and a
    // parameter named like the description a hardware value starts with
    out = inlined(R"(module t;
import gpu;
const int TILE = 3;
gpu void second(int n, float[n, TILE] x) {
    const int threads = gpu.hierarchy.blocks.block.threads.max_nr_units;
    foreach (int b in n blocks) {
        foreach (int t in threads threads) {
            x[b, 1] = toFloat(t);
        }
    }
}
gpu void f(int n, int TILE, int gpu, float[n, 3] a) {
    second(n, a);
}
)");
    EXPECT_THAT(out, HasSubstr(R"(gpu void f(int n, int TILE, int gpu, float[n, 3] a) {
    const int threads = 1024;
    foreach (int b in n blocks) {)")) << out;
}

// A callee whose parameters have `as` views: each of its foreach loops
// that reads a view starts with an `as` statement that views the argument
// so, in fresh names (the grid backends run no host-level view).
const std::string kViewedParameters = R"(module t;
import perfect;
perfect void spread(int n, float[n, 2] a as float[n * 2] flat, const float[n] w as float[n, 1] col) {
    foreach (int i in n threads) {
        flat[i * 2] = flat[i * 2 + 1] + col[i, 0];
    }
    foreach (int i in n threads) a[i, 1] = w[i];
}
)";

TEST(InlineKernelCalls, ParameterViewsBecomeViewsOfTheArgumentsInTheLoopsThatReadThem) {
    std::string out = inlined(kViewedParameters + R"(
perfect void f(int m, float[m, 2] x, float[m] y, float[m] flat) {
    spread(m, x, y);
    foreach (int i in m threads) {
        flat[i] = x[i, 0];
    }
}
)");
    EXPECT_THAT(out, HasSubstr(R"(perfect void f(int m, float[m, 2] x, float[m] y, float[m] flat) {
    foreach (int i_2 in m threads) {
        x as float[m * 2] flat_2;
        y as float[m, 1] col;
        flat_2[i_2 * 2] = flat_2[i_2 * 2 + 1] + col[i_2, 0];
    }
    foreach (int i_3 in m threads)
        x[i_3, 1] = y[i_3];
    foreach (int i in m threads) {)")) << out;
}

TEST(InlineKernelCalls, CallsThatCannotBeInlinedStay) {
    // returns outside its foreach loops
    std::string out = inlined(R"(module t;
import perfect;
perfect void early(int n, float[n] x) {
    if (n < 4) {
        return;
    }
    foreach (int i in n threads) {
        x[i] = 1.0;
    }
}
perfect void f(int n, float[n] a) {
    early(n, a);
}
)");
    EXPECT_THAT(out, HasSubstr("    early(n, a);\n")) << out;
    // sees the argument in another shape: [n, w] as [w, n]
    out = inlined(R"(module t;
import perfect;
perfect void rows(int m, int k, float[m, k] x) {
    foreach (int i in m threads) {
        x[i, 0] = 1.0;
    }
}
perfect void f(int n, int w, float[n, w] b) {
    rows(w, n, b);
    rows(n, w, b);
}
)");
    EXPECT_THAT(out, HasSubstr("    rows(w, n, b);\n    foreach (int i in n threads) {\n        b[i, 0] = 1.0;\n")) << out;
    // TILE sizes the callee's parameter: the caller's TILE would give the
    // rows another length, so the callee would read other elements
    out = inlined(R"(module t;
import perfect;
const int TILE = 3;
perfect void second(int n, float[n, TILE] x) {
    foreach (int i in n threads) {
        x[i, 1] = 1.0;
    }
}
perfect void f(int n, int TILE, float[n, TILE] a) {
    second(n, a);
}
)");
    EXPECT_THAT(out, HasSubstr("    second(n, a);\n")) << out;
    // an element passed where the callee writes the scalar (by reference)
    out = inlined(kScale + R"(
perfect void f(int n, float[n] a, int[1] calls) {
    scale(n, a, 2.0, calls[0]);
}
)");
    EXPECT_THAT(out, HasSubstr("    scale(n, a, 2.0, calls[0]);\n")) << out;
}

// Why the first call statement of the module's last function, a kernel
// call, stays a call; "" where it would be inlined.
std::string why_first_call_stays(const std::string& text) {
    CheckedText c = check_text(text);
    expect_clean(c);
    const Function& caller = *c.module()->functions.back();
    for (const auto& s : caller.body->body)
        if (s->kind == Stmt::Kind::Call) return lower::why_kernel_call_stays(c.program, caller, *s).value_or("");
    ADD_FAILURE() << "no call statement";
    return "";
}

TEST(InlineKernelCalls, WhyACallStaysIsSaid) {
    EXPECT_EQ(why_first_call_stays(kScale + R"(
perfect void f(int n, float[n] a, int[1] calls) {
    scale(n, a, 2.0, calls[0]);
}
)"),
              "it takes 'calls' by reference, and the argument 'calls[0]' is not a whole variable");
    EXPECT_EQ(why_first_call_stays(R"(module t;
import perfect;
const float SCALE = 2.0;
perfect void g(int n, float[n] x) {
    foreach (int i in n threads) {
        x[i] = SCALE;
    }
}
perfect void f(int n, float SCALE, float[n] a) {
    g(n, a);
}
)"),
              "it refers to 'SCALE', which the caller's 'SCALE' hides");
    EXPECT_EQ(why_first_call_stays(R"(module t;
import perfect;
perfect float sq(float v) {
    return v * v;
}
perfect void g(int n, float[n] x) {
    foreach (int i in n threads) {
        x[i] = sq(x[i]) + min(x[i], 1.0);
    }
}
perfect void f(int n, int sq, int min, float[n] a) {
    g(n, a);
}
)"),
              "it refers to 'sq', which the caller's 'sq' hides");
    EXPECT_EQ(why_first_call_stays(R"(module t;
import perfect;
type Pt {
    float x;
}
perfect void g(int n, float[n] v) {
    foreach (int i in n threads) {
        Pt p;
        p.x = v[i];
        v[i] = p.x * 2.0;
    }
}
perfect void f(int n, int Pt, float[n] a) {
    g(n, a);
}
)"),
              "it refers to 'Pt', which the caller's 'Pt' hides");
    EXPECT_EQ(why_first_call_stays(kViewedParameters + R"(
perfect void f(int m, float[m, 2] x, float[m] y) {
    spread(m - 1, x, y);
}
)"),
              "its parameter 'a' has an 'as' view, and the argument 'x', of type float[m, 2], is not of the "
              "parameter's type float[m - 1, 2] here, which the view would need");
    EXPECT_EQ(why_first_call_stays(kViewedParameters + R"(
perfect void g(int n, float[n, 2] a as float[n * 2] flat, float[n] w) {
    flat as float[n, 2] back;
    spread(n, back, w);
    foreach (int i in n threads) {
        w[i] = 0.0;
    }
}
perfect void f(int m, float[m, 2] x, float[m] y) {
    g(m, x, y);
}
)"),
              "its parameter 'a' has an 'as' view that its statements outside the foreach loops use");
    EXPECT_EQ(why_first_call_stays(R"(module t;
import perfect;
perfect void rows(int m, int k, float[m, k] x) {
    foreach (int i in m threads) {
        x[i, 0] = 1.0;
    }
}
perfect void f(int n, int w, float[n, w] b) {
    rows(w, n, b);
}
)"),
              "its parameter 'x', of type float[w, n] here, would not see the elements of 'b', of type float[n, w], "
              "where they are: the extents after the first differ");
    EXPECT_EQ(why_first_call_stays(kScale + R"(
perfect void f(int n, float[n] a) {
    int calls = 0;
    scale(n, a, 2.0, calls);
}
)"),
              "");
}

}  // namespace
}  // namespace mcl::mcpl::testing
