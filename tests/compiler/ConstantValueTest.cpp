// Constant folding with MCPL's 32-bit int: the values it computes, and every
// problem it finds (division and modulo by zero, shifts outside 0 to 31 or of
// a negative number, overflow, literals out of range) reported once, at the divisor or the operator (a binary
// expression's location is its operator's).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "compiler/ast/ConstantValue.h"
#include "tests/compiler/McplTestSupport.h"

namespace mcl::mcpl::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

struct Folded {
    std::optional<int64_t> value;
    std::vector<std::string> problems;  // "line:column: message"
};

// Folds `expr`, the initialiser of a constant; a variable `n` is not constant.
Folded fold(const std::string& expr) {
    ParsedModule parsed = parse_text("module t;\nconst int X =\n" + expr + ";\n");
    EXPECT_TRUE(parsed.module) << parsed.text();
    Folded out;
    if (!parsed.module) return out;
    out.value = constant_int_value(
        *parsed.module->constants.front()->init, [](const Expr&) { return std::optional<int64_t>(); },
        [&](const ConstantProblem& p) {
            out.problems.push_back(fmt::format("{}:{}: {}", p.location.line, p.location.column, p.message));
        });
    return out;
}

TEST(ConstantValue, FoldsIntArithmetic) {
    EXPECT_EQ(fold("7 % 3 + 2 ^ 10 - divide_up(10, 4) * min(3, 4) + max(-1, 2)").value, 1018);
    EXPECT_EQ(fold("-7 / 2").value, -3);
    EXPECT_EQ(fold("-7 % 2").value, -1);
    EXPECT_EQ(fold("5 ^ 0").value, 1);
}

TEST(ConstantValue, FoldsBitwiseOperatorsAndShifts) {
    EXPECT_EQ(fold("6 & 64").value, 0);
    EXPECT_EQ(fold("6 | 64").value, 70);
    EXPECT_EQ(fold("-8 & 12").value, 8);
    EXPECT_EQ(fold("1 << 30").value, 1073741824);
    EXPECT_EQ(fold("-64 >> 3").value, -8);
    EXPECT_EQ(fold("(1 << 4) + 1").value, 17);
}

TEST(ConstantValue, ReportsShiftsTheInterpreterRefuses) {
    EXPECT_THAT(fold("n << 32").problems, ElementsAre("3:6: shift by 32, outside 0 to 31"));
    EXPECT_THAT(fold("n >> (0 - 1)").problems, ElementsAre("3:9: shift by -1, outside 0 to 31"));
    EXPECT_THAT(fold("-1 << 2").problems, ElementsAre("3:4: left shift of a negative number: -1 << 2"));
    EXPECT_THAT(fold("1 << 31").problems, ElementsAre(HasSubstr("the result 2147483648 overflows int")));
    EXPECT_EQ(fold("n << 31").value, std::nullopt);
    EXPECT_THAT(fold("n << 31").problems, IsEmpty());
}

TEST(ConstantValue, FoldsTheLimitsOfInt) {
    EXPECT_EQ(fold("2147483647").value, 2147483647);
    EXPECT_EQ(fold("-2147483648").value, -2147483648LL);
    EXPECT_EQ(fold("(-2) ^ 31").value, -2147483648LL);
    EXPECT_EQ(fold("2 ^ 30").value, 1073741824);
    EXPECT_EQ(fold("1 ^ 2000000000").value, 1);
    EXPECT_EQ(fold("(-1) ^ 2000000001").value, -1);
    EXPECT_EQ(fold("0 ^ 2000000000").value, 0);
    EXPECT_THAT(fold("2147483647").problems, IsEmpty());
}

TEST(ConstantValue, LeavesVariablesAndNegativeExponentsUnfolded) {
    Folded f = fold("n * 2 + 2 ^ -1");
    EXPECT_EQ(f.value, std::nullopt);
    EXPECT_THAT(f.problems, IsEmpty());
}

TEST(ConstantValue, ReportsDivisionByZeroWhateverTheDividend) {
    EXPECT_THAT(fold("n / 0").problems, ElementsAre("3:5: division by zero"));
    EXPECT_THAT(fold("n % (2 - 2)").problems, ElementsAre("3:8: modulo by zero"));
    EXPECT_THAT(fold("divide_up(n, 0)").problems, ElementsAre("3:14: divide_up by zero"));
}

TEST(ConstantValue, ReportsOverflowOnce) {
    Folded f = fold("(2147483647 + 1) * 2");
    EXPECT_EQ(f.value, std::nullopt);
    EXPECT_THAT(f.problems, ElementsAre(HasSubstr("3:13: the result 2147483648 overflows int")));
    EXPECT_THAT(fold("2 ^ 100").problems, ElementsAre(HasSubstr("3:3: 2 ^ 100 overflows int")));
    EXPECT_THAT(fold("2 ^ 31").problems, ElementsAre(HasSubstr("2 ^ 31 overflows int")));
    EXPECT_THAT(fold("-2147483648 / -1").problems, ElementsAre(HasSubstr("the result 2147483648 overflows int")));
    EXPECT_THAT(fold("65536 * 65536").problems, ElementsAre(HasSubstr("the result 4294967296 overflows int")));
    EXPECT_THAT(fold("3000000000 - 1").problems,
                ElementsAre(HasSubstr("3:1: integer literal 3000000000 is out of the range of int")));
}

TEST(ConstantValue, FindsProblemsInIndicesAndCallArguments) {
    EXPECT_THAT(fold("n[4 / 0]").problems, ElementsAre("3:7: division by zero"));
    EXPECT_THAT(fold("f(n, 1 % 0)").problems, ElementsAre("3:10: modulo by zero"));
}

TEST(ConstantValue, WithoutASinkAProblemIsJustNotConstant) {
    ParsedModule parsed = parse_text("module t;\nconst int X = 4 / 0;\n");
    ASSERT_TRUE(parsed.module);
    EXPECT_EQ(constant_int_value(*parsed.module->constants.front()->init,
                                 [](const Expr&) { return std::optional<int64_t>(); }),
              std::nullopt);
}

}  // namespace
}  // namespace mcl::mcpl::testing
