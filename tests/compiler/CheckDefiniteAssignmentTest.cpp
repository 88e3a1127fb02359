// The warning for a local scalar that some path reads before assigning:
// a branch that skips the assignment, a loop whose body may not run, a
// compound assignment or step of an unassigned variable; and the paths that
// assign on every way through (both branches, a return on the other, a
// callee that writes it) do not warn.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::mcpl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A perfect kernel whose thread body is `body` (i: the thread), with a
// helper `set(x)` that writes its parameter and one that reads and writes it.
std::string kernel(const std::string& body) {
    return "module t;\nimport perfect;\n"
           "perfect void set(float x) { x = 2.0; }\n"
           "perfect void bump(float x) { x = x + 1.0; }\n"
           "perfect void k(int n, float[n] a) {\n"
           "    foreach (int i in n threads) {\n" +
           body +
           "    }\n"
           "}\n";
}

std::string warnings_of(const std::string& body) { return diagnostics_without_errors(kernel(body)); }

TEST(CheckDefiniteAssignment, BranchWithoutTheAssignmentWarnsAtTheRead) {
    std::string text = warnings_of("float s;\nif (i % 2 == 0) { s = 1.0; }\na[i] = s;\n");
    EXPECT_THAT(text, HasSubstr("t.mcl:9:8: warning: 's' may be read before it is assigned on some path"));
    EXPECT_THAT(text, HasSubstr("t.mcl:7:7: note: declared here without a value"));
}

TEST(CheckDefiniteAssignment, AssignmentInALoopBodyDoesNotCountAfterIt) {
    std::string text = warnings_of("float s;\nfor (int r = 0; r < n; r++) { s = 1.0; }\na[i] = s;\n");
    EXPECT_THAT(text, HasSubstr("t.mcl:9:8: warning: 's' may be read"));
}

TEST(CheckDefiniteAssignment, CompoundAssignmentAndStepReadTheVariable) {
    EXPECT_THAT(warnings_of("float s;\ns += 1.0;\na[i] = s;\n"), HasSubstr("t.mcl:8:1: warning: 's' may be read"));
    EXPECT_THAT(warnings_of("int c;\nc++;\na[i] = c;\n"), HasSubstr("t.mcl:8:1: warning: 'c' may be read"));
}

TEST(CheckDefiniteAssignment, ReadInTheAssignedValueAndInAnIndexWarn) {
    EXPECT_THAT(warnings_of("float s;\ns = s * 2.0;\na[i] = s;\n"), HasSubstr("t.mcl:8:5: warning: 's' may be read"));
    EXPECT_THAT(warnings_of("int j;\na[j] = 1.0;\n"), HasSubstr("t.mcl:8:3: warning: 'j' may be read"));
}

TEST(CheckDefiniteAssignment, PassingToAParameterThatIsReadWarns) {
    EXPECT_THAT(warnings_of("float s;\nbump(s);\na[i] = s;\n"), HasSubstr("t.mcl:8:6: warning: 's' may be read"));
}

TEST(CheckDefiniteAssignment, OneWarningPerVariable) {
    std::string text = warnings_of("float s;\na[i] = s;\na[i] = s + s;\n");
    EXPECT_THAT(text, HasSubstr("t.mcl:8:8: warning"));
    EXPECT_THAT(text, Not(HasSubstr("t.mcl:9:")));
}

TEST(CheckDefiniteAssignment, EveryPathAssigningDoesNotWarn) {
    std::string text = warnings_of(
        // both branches
        "float s;\nif (i < 3) { s = 1.0; } else { s = 2.0; }\na[i] = s;\n"
        // the other branch returns
        "float t;\nif (i < 3) { t = 1.0; } else { return; }\na[i] = t;\n"
        // assigned before the loop, read inside it; assigned in the body before its read
        "float u;\nu = 0.0;\nfor (int r = 0; r < n; r++) { float v;\nv = u + r;\nu = v; }\na[i] = u;\n"
        // a callee that writes and never reads its parameter
        "float w;\nset(w);\na[i] = w;\n"
        // initialised where declared
        "float x = 1.0;\na[i] = x;\n");
    EXPECT_THAT(text, Not(HasSubstr("may be read")));
}

TEST(CheckDefiniteAssignment, ALoopWithAConstantFirstIterationAssigns) {
    EXPECT_THAT(warnings_of("float s;\nfor (int r = 0; r < 4; r++) { s = r; }\na[i] = s;\n"),
                Not(HasSubstr("may be read")));
    // constant bounds that give no iteration, and a bound that may not
    EXPECT_THAT(warnings_of("float s;\nfor (int r = 4; r < 4; r++) { s = r; }\na[i] = s;\n"),
                HasSubstr("t.mcl:9:8: warning: 's' may be read"));
    EXPECT_THAT(warnings_of("float s;\nfor (int r = 0; r < n; r++) { s = r; }\na[i] = s;\n"),
                HasSubstr("t.mcl:9:8: warning: 's' may be read"));
}

// A gpu kernel whose block body is `body` (b: the block).
std::string block_warnings_of(const std::string& body) {
    return diagnostics_without_errors(
        "module t;\nimport gpu;\n"
        "gpu void k(int n, dev float[n] a) {\n"
        "    foreach (int b in n blocks) {\n" +
        body +
        "    }\n"
        "}\n");
}

TEST(CheckDefiniteAssignment, AConstantCountOfUnitsAssignsUnlessOneReturns) {
    EXPECT_THAT(block_warnings_of("int s;\nforeach (int t in 32 threads) { s = t; }\na[b] = s;\n"),
                Not(HasSubstr("may be read")));
    EXPECT_THAT(block_warnings_of("int s;\nforeach (int t in 32 threads) { if (t > 3) { return; }\ns = t; }\n"
                                  "a[b] = s;\n"),
                HasSubstr("t.mcl:8:8: warning: 's' may be read"));
}

TEST(CheckDefiniteAssignment, ArraysAreLeftToVerify) {
    // a private array's elements are not followed
    EXPECT_THAT(warnings_of("float[2] p;\np[0] = 1.0;\na[i] = p[1];\n"), Not(HasSubstr("may be read")));
}

}  // namespace
}  // namespace mcl::mcpl::testing
