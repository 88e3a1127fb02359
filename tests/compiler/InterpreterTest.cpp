// The reference interpreter: results of small kernels at perfect and gpu
// level, lock-step between barriers, and each kind of error it reports
// (unwritten memory, indices out of range, undefined arithmetic, barriers
// that not every unit reaches) located at the construct.
#include <cmath>
#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "compiler/interpret/Interpreter.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::interpret {
namespace {

using ::testing::HasSubstr;
using mcpl::testing::check_text;
using mcpl::testing::CheckedText;

struct KernelRun {
    CheckedText checked;
    std::vector<StoragePtr> arguments;
    std::optional<InterpretError> error;

    std::vector<double> values(size_t parameter) const {
        std::vector<double> out;
        for (const Scalar& c : arguments[parameter]->cells) out.push_back(c.poison ? -999 : c.as_double());
        return out;
    }
    std::string where() const {
        return error ? fmt::format("{}:{}", error->location.line, error->location.column) : "";
    }
};

// Checks `text`, then runs its first function on `arguments`: one vector of
// numbers per parameter (a scalar is a vector of one), each converted to the
// parameter's element type.
KernelRun run(const std::string& text, const std::vector<std::vector<double>>& arguments,
        UnitOrder order = UnitOrder::Shuffled) {
    KernelRun r{check_text(text, "t.mcl", {MCL_EXAMPLES_DIR}), {}, {}};
    mcpl::testing::expect_clean(r.checked);
    const mcpl::Module* m = r.checked.module();
    if (!m || m->functions.empty()) return r;
    const mcpl::Function& kernel = *m->functions.back();
    for (size_t k = 0; k < kernel.params.size(); ++k) {
        auto storage = std::make_shared<Storage>();
        mcpl::Primitive p = element_cells(kernel.params[k]->forms.front().resolved_type).front();
        for (double v : arguments.at(k)) storage->cells.push_back(convert(Scalar::of_double(v), p).value);
        r.arguments.push_back(storage);
    }
    InterpretOptions options;
    options.order = order;
    r.error = run_kernel(*r.checked.library, kernel, r.arguments, options);
    return r;
}

TEST(Interpreter, RunsAForeachAtPerfect) {
    KernelRun r = run("module m; import perfect;\n"
                "perfect void add(int n, float[n] c, const float[n] a, const float[n] b) {\n"
                "    foreach (int i in n threads) { c[i] = a[i] + b[i]; }\n}\n",
                {{3}, {0, 0, 0}, {1, 2, 3}, {10, 20, 30}});
    ASSERT_FALSE(r.error) << r.error->message;
    EXPECT_EQ(r.values(1), (std::vector<double>{11, 22, 33}));
}

TEST(Interpreter, KeepsWhatAPartialWriteLeaves) {
    KernelRun r = run("module m; import perfect;\n"
                "perfect void interior(int n, float[n] out) {\n"
                "    foreach (int i in n - 2 threads) { out[i + 1] = 5.0; }\n}\n",
                {{4}, {1, 2, 3, 4}});
    ASSERT_FALSE(r.error) << r.error->message;
    EXPECT_EQ(r.values(1), (std::vector<double>{1, 5, 5, 4}));
}

// Every thread of a block writes its element before any reads its
// neighbour's: only lock-step between barriers gives the rotated values.
TEST(Interpreter, UnitsOfABlockMeetAtBarriers) {
    const char* text = "module m; import gpu;\n"
                       "gpu void rotate(int[8] out, const int[8] src) {\n"
                       "    foreach (int b in 2 blocks) {\n"
                       "        local int[4] tile;\n"
                       "        foreach (int t in 4 threads) {\n"
                       "            tile[t] = src[b * 4 + t];\n"
                       "            barrier(local);\n"
                       "            out[b * 4 + t] = tile[(t + 1) % 4];\n"
                       "        }\n    }\n}\n";
    for (UnitOrder order : {UnitOrder::Forward, UnitOrder::Reverse, UnitOrder::Shuffled}) {
        KernelRun r = run(text, {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 2, 3, 4, 5, 6, 7}}, order);
        ASSERT_FALSE(r.error) << r.error->message;
        EXPECT_EQ(r.values(0), (std::vector<double>{1, 2, 3, 0, 5, 6, 7, 4}));
    }
}

// Without the barrier, a thread reads its neighbour's element while the
// neighbour may still write it.
TEST(Interpreter, MissingBarrierIsARace) {
    KernelRun r = run("module m; import gpu;\n"
                      "gpu void rotate(int[4] out) {\n"
                      "    foreach (int b in 1 blocks) {\n"
                      "        local int[4] tile;\n"
                      "        foreach (int t in 4 threads) {\n"
                      "            tile[t] = t;\n"
                      "            out[t] = tile[(t + 1) % 4];\n"
                      "        }\n    }\n}\n",
                      {{0, 0, 0, 0}}, UnitOrder::Reverse);
    ASSERT_TRUE(r.error);
    EXPECT_THAT(r.error->message, HasSubstr("data race on 'tile'"));
}

// The units run a loop's rounds in lock-step here, each round's reads
// before the next round's writes; a GPU's threads do not, so one thread's
// store of round r + 1 can land before another's read of round r.
TEST(Interpreter, OverwritingWhatAnotherUnitReadBeforeABarrierIsARace) {
    const std::string kernel = "module m; import gpu;\n"
                               "gpu void f(int m, int[4] out) {\n"
                               "    foreach (int b in 1 blocks) {\n"
                               "        local int[4] tile;\n"
                               "        foreach (int t in 4 threads) {\n"
                               "            int sum = 0;\n"
                               "            for (int r = 0; r < m; r++) {\n"
                               "                tile[t] = t + r;\n"
                               "                barrier(local);\n"
                               "                sum += tile[3 - t];\n"
                               "%s"
                               "            }\n"
                               "            out[t] = sum;\n"
                               "        }\n    }\n}\n";
    auto with = [&](const std::string& end_of_round) {
        std::string text = kernel;
        text.replace(text.find("%s"), 2, end_of_round);
        return run(text, {{2}, {0, 0, 0, 0}});
    };
    KernelRun racy = with("");
    ASSERT_TRUE(racy.error);
    EXPECT_THAT(racy.error->message, HasSubstr("data race on 'tile'"));
    EXPECT_THAT(racy.error->message, HasSubstr("writes an element that unit t = "));
    KernelRun ordered = with("                barrier(local);\n");
    ASSERT_FALSE(ordered.error) << ordered.error->message;
    EXPECT_EQ(ordered.values(1), (std::vector<double>{7, 5, 3, 1}));
}

TEST(Interpreter, ReadOfUnwrittenLocalMemoryPoisonsTheResult) {
    KernelRun r = run("module m; import gpu;\n"
                      "gpu void f(int[4] out) {\n"
                      "    foreach (int b in 1 blocks) {\n"
                      "        local int[4] tile;\n"
                      "        foreach (int t in 4 threads) {\n"
                      "            if (t < 2) { tile[t] = t; }\n"
                      "            barrier(local);\n"
                      "            out[t] = tile[t];\n"
                      "        }\n    }\n}\n",
                      {{9, 9, 9, 9}});
    ASSERT_FALSE(r.error) << r.error->message;
    EXPECT_EQ(r.values(0), (std::vector<double>{0, 1, -999, -999}));  // -999: unwritten
}

TEST(Interpreter, UnwrittenValueDecidingABranchIsAnError) {
    KernelRun r = run("module m; import perfect;\n"
                "perfect void f(int n, int[n] out) {\n"
                "    foreach (int i in n threads) {\n"
                "        int x;\n"
                "        if (x > 0) { out[i] = 1; }\n"
                "    }\n}\n",
                {{2}, {0, 0}});
    ASSERT_TRUE(r.error);
    EXPECT_THAT(r.error->message, HasSubstr("nothing wrote"));
    EXPECT_EQ(r.where(), "5:15");  // the comparison
}

TEST(Interpreter, IndexOutOfRangeIsLocated) {
    KernelRun r = run("module m; import perfect;\n"
                "perfect void f(int n, float[n] out) {\n"
                "    foreach (int i in n threads) { out[i + 1] = 0.0; }\n}\n",
                {{3}, {0, 0, 0}});
    ASSERT_TRUE(r.error);
    EXPECT_THAT(r.error->message, HasSubstr("index 0 of 'out' is 3, outside 0..2"));
    EXPECT_EQ(r.where(), "3:42");  // the index expression
}

TEST(Interpreter, SignedOverflowAndDivisionByZeroAreErrors) {
    KernelRun overflow = run("module m; import perfect;\n"
                       "perfect void f(int n, int[1] out) {\n"
                       "    foreach (int i in 1 threads) { out[i] = n * n; }\n}\n",
                       {{65536}, {0}});
    ASSERT_TRUE(overflow.error);
    EXPECT_THAT(overflow.error->message, HasSubstr("signed integer overflow"));
    KernelRun division = run("module m; import perfect;\n"
                       "perfect void f(int n, int[1] out) {\n"
                       "    foreach (int i in 1 threads) { out[i] = 7 / n; }\n}\n",
                       {{0}, {0}});
    ASSERT_TRUE(division.error);
    EXPECT_THAT(division.error->message, HasSubstr("division by zero"));
}

TEST(Interpreter, FollowsCArithmetic) {
    KernelRun r = run("module m; import perfect;\n"
                "perfect void f(int[6] out, float[2] g) {\n"
                "    foreach (int i in 1 threads) {\n"
                "        out[0] = -7 / 2;\n"
                "        out[1] = -7 % 2;\n"
                "        byte b = 250;\n"
                "        b += 10;\n"
                "        out[2] = b;\n"
                "        out[3] = toInt(2.9);\n"
                "        out[4] = 2 ^ 10;\n"
                "        out[5] = divide_up(10, 4);\n"
                "        g[0] = 1.0 / 3.0;\n"
                "        g[1] = 16777216.0 + 1.0;\n"
                "    }\n}\n",
                {{0, 0, 0, 0, 0, 0}, {0, 0}});
    ASSERT_FALSE(r.error) << r.error->message;
    EXPECT_EQ(r.values(0), (std::vector<double>{-3, -1, 4, 2, 1024, 3}));
    EXPECT_EQ(r.values(1)[0], static_cast<double>(1.0f / 3.0f));  // single precision
    EXPECT_EQ(r.values(1)[1], 16777216.0);
}

TEST(Interpreter, UnsuffixedFloatLiteralsAreDoublesWhereADoubleIsWanted) {
    KernelRun r = run("module m; import perfect;\n"
                "const double kTenth = 0.1;\n"
                "perfect double tenth() { return 0.1; }\n"
                "perfect double same(double x) { return x; }\n"
                "perfect void f(double[9] d, float[2] g) {\n"
                "    foreach (int i in 1 threads) {\n"
                "        double x = 0.1;\n"
                "        d[0] = x;\n"
                "        d[1] = 0.1;\n"
                "        d[2] = tenth();\n"
                "        d[3] = same(0.1);\n"
                "        d[4] = x + x + x - 0.3;\n"
                "        d[5] = kTenth + toDouble(-1.0 / 3);\n"
                "        d[6] = min(x * 3.0, 0.2);\n"
                "        d[7] = 0.1f;\n"
                "        d[8] = toFloat(x) * 0.1;\n"
                "        g[0] = 0.1 + 0.2;\n"
                "        g[1] = x * 0.0 + 0.1 - 0.1f;\n"
                "    }\n}\n",
                {std::vector<double>(9, 0.0), {0, 0}});
    ASSERT_FALSE(r.error) << r.error->message;
    const double tenth = 0.1;
    EXPECT_EQ(r.values(0), (std::vector<double>{tenth, tenth, tenth, tenth, tenth + tenth + tenth - 0.3,
                                                tenth + -1.0 / 3, 0.2, static_cast<double>(0.1f),
                                                static_cast<double>(0.1f * 0.1f)}));
    EXPECT_EQ(r.values(1)[0], static_cast<double>(0.1f + 0.2f));  // floats beside floats
    EXPECT_EQ(r.values(1)[1], static_cast<double>(static_cast<float>(tenth - static_cast<double>(0.1f))));
}

// A literal is rounded once, to its own type, as C compilers round it: the
// spelling below lies just past halfway between the floats 1 and 1 + 2^-23,
// so it is 1 + 2^-23 as a float, while the double nearest it is exactly the
// halfway point, which a second rounding to float takes to 1 (ties to even).
TEST(Interpreter, FloatLiteralsAreRoundedOnceToTheirType) {
    KernelRun r = run("module m; import perfect;\n"
                      "perfect void f(float[4] g, double[1] d) {\n"
                      "    foreach (int i in 1 threads) {\n"
                      "        g[0] = 1.00000005960464477540;\n"
                      "        g[1] = 1.00000005960464477540f;\n"
                      "        g[2] = (1.00000005960464477540 - 1.0f) * 8388608.0f;\n"
                      "        g[3] = 1.4e-45;\n"
                      "        d[0] = 1.00000005960464477540;\n"
                      "    }\n}\n",
                      {{0, 0, 0, 0}, {0}});
    ASSERT_FALSE(r.error) << r.error->message;
    const double above_one = static_cast<double>(std::nextafter(1.0f, 2.0f));
    EXPECT_EQ(r.values(0), (std::vector<double>{above_one, above_one, 1.0,
                                                static_cast<double>(std::numeric_limits<float>::denorm_min())}));
    EXPECT_EQ(r.values(1)[0], 1.0 + std::ldexp(1.0, -24));
}

TEST(Interpreter, FunctionWithABarrierGivesEachUnitItsValue) {
    // `total` is declared and assigned from a function the units call
    // together: each unit gets its own sum of its left neighbours.
    KernelRun r = run("module m; import gpu;\n"
                "gpu int prefix(local int[4] tile, int t) {\n"
                "    int sum = 0;\n"
                "    for (int k = 0; k < 4; k++) {\n"
                "        if (k < t) { sum += tile[k]; }\n"
                "        barrier(local);\n"
                "    }\n"
                "    return sum;\n"
                "}\n"
                "gpu void f(int[8] out) {\n"
                "    foreach (int b in 1 blocks) {\n"
                "        local int[4] tile;\n"
                "        foreach (int t in 4 threads) {\n"
                "            tile[t] = t + 1;\n"
                "            barrier(local);\n"
                "            int total = prefix(tile, t);\n"
                "            out[t] = total;\n"
                "            total = prefix(tile, 3 - t);\n"
                "            out[t + 4] = total;\n"
                "        }\n    }\n}\n",
                {std::vector<double>(8, 0)});
    ASSERT_FALSE(r.error) << r.error->message;
    EXPECT_EQ(r.values(0), (std::vector<double>{0, 1, 3, 6, 6, 3, 1, 0}));
}

TEST(Interpreter, BarrierUnderDivergentConditionIsAnError) {
    KernelRun r = run("module m; import gpu;\n"
                "gpu void f(int[4] out) {\n"
                "    foreach (int b in 1 blocks) {\n"
                "        local int[4] tile;\n"
                "        foreach (int t in 4 threads) {\n"
                "            tile[t] = t;\n"
                "            if (t < 2) { barrier(local); }\n"
                "            out[t] = tile[t];\n"
                "        }\n    }\n}\n",
                {{0, 0, 0, 0}});
    ASSERT_TRUE(r.error);
    EXPECT_THAT(r.error->message, HasSubstr("disagree"));
    EXPECT_EQ(r.where(), "7:19");  // the condition
}

// Units that return before a barrier leave the others waiting there, unless
// every unit of the block returned: then none waits.
TEST(Interpreter, BarrierAfterEveryUnitReturnedWaitsForNone) {
    const std::string text = "module m; import gpu;\n"
                             "gpu void f(int n, int[4] out) {\n"
                             "    foreach (int b in 1 blocks) {\n"
                             "        local int[4] tile;\n"
                             "        foreach (int t in 4 threads) {\n"
                             "            if (t < n) { return; }\n"
                             "            tile[t] = t;\n"
                             "            barrier(local);\n"
                             "            out[t] = tile[3 - t];\n"
                             "        }\n    }\n}\n";
    KernelRun none = run(text, {{0}, {0, 0, 0, 0}});
    ASSERT_FALSE(none.error) << none.error->message;
    EXPECT_EQ(none.values(1), (std::vector<double>{3, 2, 1, 0}));
    KernelRun all = run(text, {{4}, {5, 5, 5, 5}});
    ASSERT_FALSE(all.error) << all.error->message;
    EXPECT_EQ(all.values(1), (std::vector<double>{5, 5, 5, 5}));
    KernelRun some = run(text, {{2}, {0, 0, 0, 0}});
    ASSERT_TRUE(some.error);
    EXPECT_THAT(some.error->message, HasSubstr("barrier(local) is not reached by units that returned before it"));
    EXPECT_EQ(some.where(), "8:13");
}

// barrier(main) at perfect synchronises every thread: what a grid-wide
// barrier means, and what the interpreter runs.
TEST(Interpreter, BarrierOnMainAtPerfectSynchronisesAllThreads) {
    KernelRun r = run("module m; import perfect;\n"
                "perfect void f(int n, int[n] a, int[n] out) {\n"
                "    foreach (int i in n threads) {\n"
                "        a[i] = i * 10;\n"
                "        barrier(main);\n"
                "        out[i] = a[(i + 1) % n];\n"
                "    }\n}\n",
                {{5}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}}, UnitOrder::Reverse);
    ASSERT_FALSE(r.error) << r.error->message;
    EXPECT_EQ(r.values(2), (std::vector<double>{10, 20, 30, 40, 0}));
}

TEST(Interpreter, UnitsWritingOneElementAreARace) {
    KernelRun r = run("module m; import perfect;\n"
                      "perfect void count(int n, int[1] total) {\n"
                      "    foreach (int i in n threads) { total[0] = total[0] + 1; }\n}\n",
                      {{4}, {0}});
    ASSERT_TRUE(r.error);
    EXPECT_THAT(r.error->message, HasSubstr("data race on 'total'"));
    EXPECT_THAT(r.error->message, HasSubstr("reads an element that unit i = "));
    EXPECT_EQ(r.where(), "3:47");  // the read of total[0]
}

TEST(Interpreter, ReadingANeighboursElementWithoutBarrierIsARace) {
    KernelRun r = run("module m; import perfect;\n"
                      "perfect void f(int n, int[n] a) {\n"
                      "    foreach (int i in n threads) { a[i] = 1; a[(i + 1) % n] = a[(i + 1) % n] + 1; }\n}\n",
                      {{3}, {0, 0, 0}}, UnitOrder::Forward);
    ASSERT_TRUE(r.error);
    EXPECT_THAT(r.error->message,
                HasSubstr("unit i = 1 of the foreach at line 3 writes an element that unit i = 0 of the foreach at "
                          "line 3 wrote, with no barrier between"));
}

TEST(Interpreter, AtomicsAndSiblingLoopsAreNoRace) {
    KernelRun r = run("module m; import perfect; import lib.atomics;\n"
                      "perfect void f(int n, int[n] a, int[1] total) {\n"
                      "    foreach (int i in n threads) { a[i] = i; atomicAddInt(total[0], 1); }\n"
                      "    foreach (int i in n threads) { a[(i + 1) % n] += 10; }\n}\n",
                      {{3}, {0, 0, 0}, {5}});
    ASSERT_FALSE(r.error) << r.error->message;
    EXPECT_EQ(r.values(1), (std::vector<double>{10, 11, 12}));
    EXPECT_EQ(r.values(2), (std::vector<double>{8}));
}

TEST(Interpreter, DeviceFunctionsRecordsAndViews) {
    KernelRun r = run("module m; import perfect;\n"
                "type Pair { float x; int[2] k; }\n"
                "perfect float twice(const float v) { return v * 2.0; }\n"
                "perfect void bump(reg main int c) { c = c + 1; }\n"
                "perfect void f(float[2,3] a, int[1] count) {\n"
                "    foreach (int i in 1 threads) {\n"
                "        Pair p;\n"
                "        p.x = twice(3.0);\n"
                "        p.k[1] = 4;\n"
                "        a as float[6] flat;\n"
                "        flat[4] = p.x + toFloat(p.k[1]);\n"
                "        int c = 0;\n"
                "        bump(c);\n"
                "        bump(c);\n"
                "        count[0] = c;\n"
                "    }\n}\n",
                {{0, 0, 0, 0, 0, 0}, {0}});
    ASSERT_FALSE(r.error) << r.error->message;
    EXPECT_EQ(r.values(0), (std::vector<double>{0, 0, 0, 0, 10, 0}));
    EXPECT_EQ(r.values(1), (std::vector<double>{2}));
}

TEST(Interpreter, EndlessLoopStopsAtTheStepLimit) {
    CheckedText checked = check_text("module m; import perfect;\n"
                                     "perfect void f(int[1] out) {\n"
                                     "    foreach (int i in 1 threads) {\n"
                                     "        for (int k = 0; k >= 0; k = k * 1) { out[0] = k; }\n"
                                     "    }\n}\n");
    mcpl::testing::expect_clean(checked);
    auto out = std::make_shared<Storage>();
    out->cells.push_back(Scalar::of_int(0));
    InterpretOptions options;
    options.step_limit = 10000;
    auto error = run_kernel(*checked.library, *checked.module()->functions.back(), {out}, options);
    ASSERT_TRUE(error);
    EXPECT_THAT(error->message, HasSubstr("more than 10000 steps"));
}

// An argument smaller than its parameter is refused before the kernel
// runs; a record given one cell for its two fields was read past its end.
TEST(Interpreter, ArgumentSmallerThanItsParameterIsAnError) {
    CheckedText checked = check_text("module m; import perfect;\n"
                                     "type Complex { float re; float im; }\n"
                                     "perfect void f(Complex c, float[1] out) {\n"
                                     "    foreach (int i in 1 threads) { out[0] = c.re + c.im; }\n}\n");
    mcpl::testing::expect_clean(checked);
    auto record = std::make_shared<Storage>();
    record->cells.push_back(Scalar::of_float(1));
    auto out = std::make_shared<Storage>();
    out->cells.push_back(Scalar::of_float(0));
    auto error = run_kernel(*checked.library, *checked.module()->functions.back(), {record, out}, {});
    ASSERT_TRUE(error);
    EXPECT_THAT(error->message, HasSubstr("parameter 'c' takes 2 values, but the argument holds 1"));
    EXPECT_EQ(error->location.line, 3u);

    record->cells.push_back(Scalar::of_float(2));
    EXPECT_FALSE(run_kernel(*checked.library, *checked.module()->functions.back(), {record, out}, {}));
    EXPECT_EQ(out->cells[0].as_double(), 3.0);
}

TEST(Interpreter, LayoutsFollowTheParameters) {
    CheckedText checked = check_text("module m; import perfect;\n"
                                     "perfect void f(int n, int m, float[n, m + 1] a, const int[n][2] t) {\n"
                                     "    foreach (int i in n threads) { a[i, 0] = 1.0; }\n}\n");
    mcpl::testing::expect_clean(checked);
    std::vector<ParameterLayout> layouts;
    ASSERT_FALSE(parameter_layouts(*checked.module()->functions.back(), {Scalar::of_int(3), Scalar::of_int(4)},
                                   layouts));
    ASSERT_EQ(layouts.size(), 4u);
    EXPECT_EQ(layouts[2].extents, (std::vector<int64_t>{3, 5}));
    EXPECT_EQ(layouts[3].extents, (std::vector<int64_t>{3, 2}));
    EXPECT_FALSE(layouts[0].is_array);
    auto error = parameter_layouts(*checked.module()->functions.back(), {Scalar::of_int(3), Scalar::of_int(-4)},
                                   layouts);
    ASSERT_TRUE(error);
    EXPECT_THAT(error->message, HasSubstr("negative"));
}

}  // namespace
}  // namespace mcl::interpret
