// infer_read_write: which variables are read and written, through calls,
// builtin bodies and recursion; `const` is never written; no aliasing.
#include <functional>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::mcpl {
namespace {

using ::testing::HasSubstr;
using testing::check_files;
using testing::expect_clean;
using testing::expect_error;
using testing::find_decl;
using testing::check_text;
using testing::CheckedText;

// "rw", "r-", "-w" or "--" for a variable; "missing" when there is none.
std::string access(const CheckedText& checked, const std::string& fn, const std::string& name) {
    const Decl* d = find_decl(checked, fn, name);
    if (!d) return "missing";
    return std::string(d->is_read ? "r" : "-") + (d->is_written ? "w" : "-");
}

CheckedText check_example(const std::string& file) {
    return check_files({std::string(MCL_EXAMPLES_DIR) + "/" + file}, {MCL_EXAMPLES_DIR});
}

// ------------------------------------------------------------------ flags

TEST(InferReadWrite, Matmul) {
    CheckedText checked = check_example("matmul/matmul.mcl");
    expect_clean(checked);
    EXPECT_EQ(access(checked, "matmul", "a"), "r-");
    EXPECT_EQ(access(checked, "matmul", "b"), "r-");
    EXPECT_EQ(access(checked, "matmul", "c"), "rw");  // c[i,j] += sum
    EXPECT_EQ(access(checked, "matmul", "n"), "r-");
    EXPECT_EQ(access(checked, "matmul", "sum"), "rw");
    EXPECT_EQ(access(checked, "matmul", "k"), "rw");  // k++
    EXPECT_EQ(access(checked, "matmul", "i"), "r-");
}

TEST(InferReadWrite, PlainAssignmentOnlyWrites) {
    CheckedText checked = check_example("vectoradd/vectoradd.mcl");
    expect_clean(checked);
    EXPECT_EQ(access(checked, "vectoradd", "c"), "-w");
    EXPECT_EQ(access(checked, "vectoradd", "a"), "r-");
}

TEST(InferReadWrite, SizesInTypesAreRead) {
    CheckedText checked = check_text(R"(module m;
import perfect;
perfect void f(int n, int unused, float[n] x) {
    foreach (int i in 4 threads) {
        x[i] = 0.0;
    }
}
)");
    expect_clean(checked);
    EXPECT_EQ(access(checked, "f", "n"), "r-");
    EXPECT_EQ(access(checked, "f", "unused"), "--");
}

TEST(InferReadWrite, ThroughBuiltinBodies) {
    // reduction -> atomicAdd (lib.atomics), whose body reads and writes r
    CheckedText checked = check_example("reduction/reduction.mcl");
    expect_clean(checked);
    EXPECT_EQ(access(checked, "atomicAdd", "r"), "rw");
    EXPECT_EQ(access(checked, "atomicAdd", "a"), "r-");
    EXPECT_EQ(access(checked, "reduction", "sum"), "rw");
    EXPECT_EQ(access(checked, "reduction", "values"), "r-");

    CheckedText histogram = check_example("histogram/histogram.mcl");
    expect_clean(histogram);
    EXPECT_EQ(access(histogram, "histogram", "hist"), "rw");  // atomicAddInt(hist[v], 1)
    EXPECT_EQ(access(histogram, "histogram", "v"), "r-");      // an index of the argument
}

TEST(InferReadWrite, ConstantsAndHelpers) {
    CheckedText checked = check_example("blackscholes/blackscholes.mcl");
    expect_clean(checked);
    EXPECT_EQ(access(checked, "", "CND_P"), "r-");
    EXPECT_EQ(access(checked, "cnd", "d"), "r-");
    EXPECT_EQ(access(checked, "cnd", "c"), "rw");
    EXPECT_EQ(access(checked, "blackscholes", "callPrice"), "-w");
    EXPECT_EQ(access(checked, "blackscholes", "price"), "r-");
}

TEST(InferReadWrite, ThroughUserCalls) {
    CheckedText checked = check_text(R"(module m;
import perfect;
perfect void store(float[4] to, const float v) {
    to[0] = v;
}
perfect void forward(float[4] to, float[4] from) {
    store(to, from[0]);
}
perfect void k(float[4] out, float[4] input) {
    foreach (int i in 4 threads) {
        forward(out, input);
    }
}
)");
    expect_clean(checked);
    EXPECT_EQ(access(checked, "forward", "to"), "-w");
    EXPECT_EQ(access(checked, "forward", "from"), "r-");
    EXPECT_EQ(access(checked, "k", "out"), "-w");
    EXPECT_EQ(access(checked, "k", "input"), "r-");
}

TEST(InferReadWrite, RecursionReachesAFixedPoint) {
    // `b` is written only through the recursive call, which swaps the
    // arguments: the first sweep cannot know it.
    CheckedText checked = check_text(R"(module m;
import perfect;
perfect void f(int k, float[4] a, float[4] b) {
    if (k > 0) {
        f(k - 1, b, a);
    } else {
        a[0] = 1.0;
    }
}
perfect void g(float[4] x, float[4] y) {
    f(3, x, y);
}
)");
    expect_clean(checked);
    EXPECT_EQ(access(checked, "f", "a"), "-w");
    EXPECT_EQ(access(checked, "f", "b"), "-w");
    EXPECT_EQ(access(checked, "g", "y"), "-w");
}

TEST(InferReadWrite, SwapAndStep) {
    CheckedText checked = check_text(R"(module m;
import perfect;
perfect void f(float[4] x, float[4] y, int count) {
    foreach (int i in 4 threads) {
        x[i] <=> y[i];
    }
    count++;
}
)");
    expect_clean(checked);
    EXPECT_EQ(access(checked, "f", "x"), "rw");
    EXPECT_EQ(access(checked, "f", "y"), "rw");
    EXPECT_EQ(access(checked, "f", "count"), "rw");
}

TEST(InferReadWrite, WritesThroughAnAsView) {
    // `grid` is a second shape of `flat`'s storage: writing it writes `flat`
    CheckedText checked = check_text(R"(module m;
import perfect;
perfect void f(float[6] flat) {
    flat as float[2,3] grid;
    foreach (int i in 2 threads) {
        grid[i,0] = 1.0;
    }
}
)");
    expect_clean(checked);
    EXPECT_EQ(access(checked, "f", "flat"), "-w");
}

// ------------------------------------------------------------------ const

TEST(InferReadWrite, ConstParameterWritten) {
    expect_error(R"(module m;
import perfect;
perfect void f(int n, const float[n] a) {
    foreach (int i in n threads) {
        a[i] = 1.0;
    }
}
)",
                 "t.mcl:5:9: error: 'a' is const but is written here");
}

TEST(InferReadWrite, ConstLocalStepped) {
    expect_error(R"(module m;
import perfect;
perfect void f(int n) {
    foreach (int i in n threads) {
        const int k = 3;
        k++;
    }
}
)",
                 "t.mcl:6:9: error: 'k' is const but is written here");
}

TEST(InferReadWrite, ConstWrittenThroughACall) {
    expect_error(R"(module m;
import perfect;
perfect void set(float[4] to) {
    to[0] = 1.0;
}
perfect void k(const float[4] a) {
    foreach (int i in 4 threads) {
        set(a);
    }
}
)",
                 "t.mcl:8:13: error: 'a' is const but is written here\n"
                 "          set(a);\n"
                 "              ^\n"
                 "t.mcl:3:27: note: 'set' writes its parameter 'to'");
}

TEST(InferReadWrite, ConstWrittenByABuiltinBody) {
    expect_error(R"(module m;
import perfect;
perfect void w(const float x) {
    mcl_builtin_write(x);
}
)",
                 "t.mcl:4:23: error: 'x' is const but is written here");
}

TEST(InferReadWrite, ConstPassedToReadingParameter) {
    expect_clean(check_text(R"(module m;
import perfect;
perfect float first(const float[4] from) {
    return from[0];
}
perfect void k(const float[4] a, float[4] out) {
    foreach (int i in 4 threads) {
        out[i] = first(a);
    }
}
)"));
}

// ---------------------------------------------------------------- aliasing

TEST(InferReadWrite, AliasingWrittenParameter) {
    expect_error(R"(module m;
import perfect;
perfect void copy(const float[4] a, float[4] b) {
    b[0] = a[0];
}
perfect void k(float[4] x) {
    foreach (int i in 4 threads) {
        copy(x, x);
    }
}
)",
                 "t.mcl:8:17: error: 'x' is passed twice to 'copy', which writes parameter 'b'; "
                 "MCPL forbids aliasing\n"
                 "          copy(x, x);\n"
                 "                  ^\n"
                 "t.mcl:8:14: note: first passed here");
}

TEST(InferReadWrite, AliasingThroughAView) {
    expect_error(R"(module m;
import perfect;
perfect void copy(const float[4] a, float[4] b) {
    b[0] = a[0];
}
perfect void k(float[4] x) {
    foreach (int i in 4 threads) {
        x as float[4] y;
        copy(y, x);
    }
}
)",
                 "t.mcl:9:17: error: 'y' and 'x' name one storage and are both passed to 'copy', which writes "
                 "parameter 'b'; MCPL forbids aliasing\n"
                 "          copy(y, x);\n"
                 "                  ^\n"
                 "t.mcl:9:14: note: first passed here");
}

TEST(InferReadWrite, ValueToWrittenParameter) {
    expect_error(R"(module m;
import perfect;
perfect void inc(float a) {
    a = a + 1.0;
}
perfect void k(float[4] x) {
    foreach (int i in 4 threads) {
        inc(x[i] * 2.0);
    }
}
)",
                 "t.mcl:8:18: error: 'inc' writes its parameter 'a': pass a variable, not a value\n"
                 "          inc(x[i] * 2.0);\n"
                 "                   ^\n"
                 "t.mcl:3:24: note: parameter declared here");
}

TEST(InferReadWrite, SameVariableToReadOnlyParameters) {
    CheckedText checked = check_text(R"(module m;
import perfect;
perfect float dot(const float[4] a, const float[4] b) {
    return a[0] * b[0];
}
perfect void k(float[4] x) {
    foreach (int i in 4 threads) {
        x[i] = dot(x, x);
    }
}
)");
    expect_clean(checked);
    EXPECT_EQ(access(checked, "k", "x"), "rw");
}

}  // namespace
}  // namespace mcl::mcpl
