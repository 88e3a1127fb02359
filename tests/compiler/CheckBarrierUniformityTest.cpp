// The warning for barriers that the units they synchronise may not all
// reach: conditions that depend on a unit's index, directly or through
// variables, warn at the condition; conditions every unit agrees on do not.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::mcpl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A gpu kernel over blocks of 64 threads with `local float[64] t`, whose
// thread body is `body` (b: the block, i: the thread).
std::string kernel(const std::string& body) {
    return "module t;\nimport gpu;\n"
           "gpu void k(int n, float[n] a, const int[n] limits) {\n"
           "    foreach (int b in divide_up(n, 64) blocks) {\n"
           "        local float[64] t;\n"
           "        foreach (int i in 64 threads) {\n" +
           body +
           "        }\n"
           "    }\n"
           "}\n";
}

std::string warnings_of(const std::string& body) { return diagnostics_without_errors(kernel(body)); }

TEST(CheckBarrierUniformity, LoopWhoseTripsDependOnTheThreadWarns) {
    std::string text = warnings_of("for (int r = 0; r < i % 3; r++) { t[i] = 1.0; barrier(local); }\n");
    EXPECT_THAT(text, HasSubstr("t.mcl:7:19: warning: the units of 'threads' may disagree on this condition (it "
                                "depends on 'i'), so some may not reach the barrier(local) on line 7 inside it"));
}

TEST(CheckBarrierUniformity, ConditionOnAVariableComputedFromTheThreadWarns) {
    std::string text = warnings_of("int g = b * 64 + i;\nif (g < n) { t[i] = a[g]; barrier(local); }\n");
    EXPECT_THAT(text, HasSubstr("t.mcl:8:7: warning: the units of 'threads' may disagree on this condition (it "
                                "depends on 'g')"));
}

TEST(CheckBarrierUniformity, VariableAssignedUnderADivergentConditionWarns) {
    std::string text = warnings_of(
        "int x = 0;\nif (i < 3) { x = 1; }\nfor (int r = 0; r < x; r++) { barrier(local); }\n");
    EXPECT_THAT(text, HasSubstr("t.mcl:9:19: warning: the units of 'threads' may disagree on this condition (it "
                                "depends on 'x')"));
}

TEST(CheckBarrierUniformity, PrivateArrayWrittenPerThreadWarns) {
    std::string text = warnings_of("int[2] p;\np[0] = i;\np[1] = 0;\nif (p[1] > 0) { barrier(local); }\n");
    EXPECT_THAT(text, HasSubstr("t.mcl:10:10: warning: the units of 'threads' may disagree on this condition (it "
                                "depends on 'p')"));
}

TEST(CheckBarrierUniformity, ValueReadAtTheThreadsIndexWarns) {
    std::string text = warnings_of("if (limits[i] > 0) { barrier(local); }\n");
    EXPECT_THAT(text, HasSubstr("it depends on 'i'"));
}

TEST(CheckBarrierUniformity, AgreedConditionsDoNotWarn) {
    // the block's index (barrier(local) synchronises the threads of one
    // block), sizes, memory read at an index every thread agrees on, a loop
    // halving a stride, and a condition without a barrier inside
    std::string text = warnings_of(
        "if (b < 3) { barrier(local); }\n"
        "for (int r = 0; r < limits[b]; r++) { t[i] = toFloat(r); barrier(local); }\n"
        "for (int s = 32; s > 0; s /= 2) {\n"
        "    if (i < s) { t[i] += t[i + s]; }\n"
        "    barrier(local);\n"
        "}\n"
        "if (t[0] > 1.0) { barrier(local); }\n"
        "if (i == 0 && b * 64 < n) { a[b * 64] = t[0]; }\n");
    EXPECT_THAT(text, Not(HasSubstr("warning")));
}

TEST(CheckBarrierUniformity, ReturnOfSomeThreadsBeforeABarrierWarns) {
    std::string text = warnings_of("int g = b * 64 + i;\nif (g >= n) { return; }\nt[i] = a[g];\nbarrier(local);\n"
                                   "a[g] = t[63 - i];\n");
    EXPECT_THAT(text, HasSubstr("t.mcl:8:7: warning: the units of 'threads' may disagree on this condition (it "
                                "depends on 'g'), so some may return before the barrier(local) on line 10 that the "
                                "others wait at"));
}

TEST(CheckBarrierUniformity, ReturnInALoopWithABarrierWarns) {
    std::string text = warnings_of("for (int r = 0; r < 4; r++) {\n    barrier(local);\n    if (i == r) { return; }\n}\n");
    EXPECT_THAT(text, HasSubstr("t.mcl:9:11: warning: the units of 'threads' may disagree on this condition (it "
                                "depends on 'i'), so some may return before the barrier(local) on line 8"));
}

TEST(CheckBarrierUniformity, ReturnAfterTheLastBarrierOrOfEveryThreadDoesNotWarn) {
    std::string text = warnings_of("t[i] = 1.0;\nbarrier(local);\nif (b * 64 + i >= n) { return; }\n"
                                   "a[b * 64 + i] = t[63 - i];\n");
    EXPECT_THAT(text, Not(HasSubstr("warning")));
    text = warnings_of("if (b * 64 >= n) { return; }\nt[i] = 1.0;\nbarrier(local);\n");
    EXPECT_THAT(text, Not(HasSubstr("warning")));
}

// A return ends the unit of the innermost foreach around it: the threads of
// a sibling loop (or of a nested one) are units of their own, which all
// reach that loop's barrier.
TEST(CheckBarrierUniformity, ReturnInAnotherThreadLoopDoesNotWarn) {
    CheckedText r = check_text("module t;\nimport gpu;\n"
                               "gpu void k(int n, float[n] a) {\n"
                               "    foreach (int b in divide_up(n, 64) blocks) {\n"
                               "        local float[64] t;\n"
                               "        foreach (int i in 64 threads) {\n"
                               "            if (b * 64 + i >= n) { return; }\n"
                               "            t[i] = a[b * 64 + i];\n"
                               "        }\n"
                               "        foreach (int i in 64 threads) {\n"
                               "            float mine = t[63 - i];\n"
                               "            barrier(local);\n"
                               "            t[i] = mine;\n"
                               "        }\n"
                               "    }\n"
                               "}\n");
    EXPECT_FALSE(r.diags->has_errors()) << r.text();
    EXPECT_THAT(r.text(), Not(HasSubstr("warning")));
}

TEST(CheckBarrierUniformity, BarrierReachedThroughACallIsNamed) {
    CheckedText r = check_text(
        "module t;\nimport gpu;\n"
        "gpu void sync(local float[64] t) { barrier(local); }\n"
        "gpu void k(int n, float[n] a) {\n"
        "    foreach (int b in divide_up(n, 64) blocks) {\n"
        "        local float[64] t;\n"
        "        foreach (int i in 64 threads) {\n"
        "            if (i > 5) { sync(t); }\n"
        "        }\n"
        "    }\n"
        "}\n");
    EXPECT_THAT(r.text(), HasSubstr("t.mcl:8:19: warning: the units of 'threads' may disagree on this condition "
                                    "(it depends on 'i'), so some may not reach the barrier in 'sync' (called on "
                                    "line 8) inside it"));
}

// `k(...)`: a kernel as kernel() makes it, after a function `first` that
// stores into t and returns t[0] after a barrier.
std::string with_first(const std::string& body) {
    std::string text = kernel(body);
    std::string first = "gpu float first(local float[64] t, int i) { t[i] = 1.0; barrier(local); return t[0]; }\n";
    return text.insert(text.find("gpu void k"), first);
}

TEST(CheckBarrierUniformity, BarrierCallInASkippedOperandWarns) {
    CheckedText r = check_text(with_first("float x = 0.0;\nif (i < 3 || first(t, i) > 0.0) { x = 1.0; }\n"));
    EXPECT_THAT(r.text(), HasSubstr("t.mcl:9:14: warning: the units of 'threads' may disagree on the left operand "
                                    "of '||' (it depends on 'i'), so some may skip this call and the barrier in "
                                    "'first' that the others wait at"));
    // An operand every thread agrees on, or a call in the left operand
    // (which every thread makes), does not warn.
    CheckedText agreed = check_text(
        with_first("float x = 0.0;\nif (b < 3 && first(t, i) > 0.0) { x = 1.0; }\n"
                   "if (first(t, i) > 0.0 && i < 3) { x = 2.0; }\n"));
    EXPECT_THAT(agreed.text(), Not(HasSubstr("warning")));
}

}  // namespace
}  // namespace mcl::mcpl::testing
