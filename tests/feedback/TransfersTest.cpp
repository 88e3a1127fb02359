// Transfers between host and device (thesis section 3.5, Table 3.2).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "feedback/Transfers.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback {
namespace {

using testing::find_quantity;
using testing::same_expression;

using ::testing::HasSubstr;
using testing::describe;
using testing::feedback_for;
using testing::feedback_for_example;

const std::vector<NamedPass> kPass = testing::only_pass("transfers");

TEST(Transfers, MatmulAtAcceleratorThesisTable32) {
    auto result = feedback_for_example("matmul/matmul.mcl", "accelerator", {{"n", 2}, {"m", 3}, {"p", 5}}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    ASSERT_EQ(result.remarks.size(), 2u) << describe(result.remarks);
    const Remark& to = result.remarks[0];
    const Remark& from = result.remarks[1];
    EXPECT_EQ(to.kind, RemarkKind::Transfers);
    EXPECT_EQ(to.location.line, 9u) << "at the function's name";
    EXPECT_EQ(to.location.column, 14u);
    EXPECT_FALSE(to.approximate);

    const NamedQuantity* bytes_to = find_quantity(to, "bytes_to_device");
    ASSERT_NE(bytes_to, nullptr);
    EXPECT_TRUE(same_expression(bytes_to->expr, "4*n*p + 4*p*m + 4*n*m")) << bytes_to->expr;
    ASSERT_TRUE(bytes_to->value);
    EXPECT_DOUBLE_EQ(*bytes_to->value, 4.0 * (2 * 5 + 5 * 3 + 2 * 3));
    EXPECT_THAT(to.message, HasSubstr("from host to device over pcie"));
    EXPECT_THAT(to.message, HasSubstr("c (4*n*m), a (4*n*p), b (4*p*m)")) << "c is read because of +=";
    EXPECT_THAT(to.message, HasSubstr("plus a latency of 1000 cycles"));

    // 15754 MB/s, decimal prefix: bytes / 15754e6 seconds.
    const NamedQuantity* seconds_to = find_quantity(to, "seconds_to_device");
    ASSERT_NE(seconds_to, nullptr);
    ASSERT_TRUE(seconds_to->value);
    EXPECT_NEAR(*seconds_to->value, 124.0 / 15754e6, 1e-18);

    const NamedQuantity* bytes_from = find_quantity(from, "bytes_from_device");
    ASSERT_NE(bytes_from, nullptr);
    EXPECT_TRUE(same_expression(bytes_from->expr, "4*n*m")) << bytes_from->expr;
    EXPECT_EQ(Symbols::text(bytes_from->expr), "4*m*n");
    EXPECT_THAT(from.message, HasSubstr("from device to host"));
    EXPECT_NE(find_quantity(from, "seconds_from_device"), nullptr);
}

TEST(Transfers, WithoutValuesTheTimeStaysSymbolic) {
    auto result = feedback_for_example("matmul/matmul.mcl", "gpu", {}, kPass);
    ASSERT_EQ(result.remarks.size(), 2u) << describe(result.remarks);
    const NamedQuantity* seconds = find_quantity(result.remarks[1], "seconds_from_device");
    ASSERT_NE(seconds, nullptr);
    EXPECT_FALSE(seconds->value);
    EXPECT_TRUE(same_expression(seconds->expr, "4*n*m/15754000000")) << seconds->expr;
}

TEST(Transfers, NoHostLinkNoRemark) {
    for (const char* level : {"", "cpu"}) {
        auto result = feedback_for_example("matmul/matmul.mcl", level, {}, kPass);
        ASSERT_EQ(result.diagnostics, "") << level;
        EXPECT_TRUE(result.remarks.empty()) << level << "\n" << describe(result.remarks);
    }
}

TEST(Transfers, ElementSizesAndScalars) {
    auto result = feedback_for(R"(module m;
import accelerator;
accelerator void f(int n, double[n] d, const int[n, 2] q, const float[n] unused) {
    foreach (int i in n threads) {
        d[i] = toDouble(q[i, 0] + q[i, 1]);
    }
}
)", "", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    ASSERT_EQ(result.remarks.size(), 2u) << describe(result.remarks);
    // n is read by value: not a transfer; d is only written; `unused` is never read.
    EXPECT_TRUE(same_expression(find_quantity(result.remarks[0], "bytes_to_device")->expr, "8*n")) << describe(result.remarks);
    EXPECT_TRUE(same_expression(find_quantity(result.remarks[1], "bytes_from_device")->expr, "8*n"));
}

TEST(Transfers, UnknownSizesAreNamedAndApproximate) {
    auto result = feedback_for(R"(module m;
import accelerator;
accelerator void f(int n, int m, float[n] o, const float[min(n, m)] a) {
    foreach (int i in n threads) {
        o[i] = a[0];
    }
}
)", "", {}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    ASSERT_EQ(result.remarks.size(), 2u) << describe(result.remarks);
    const Remark& to = result.remarks[0];
    EXPECT_TRUE(to.approximate);
    EXPECT_THAT(to.message, HasSubstr("the size of a is not known and not counted"));
    EXPECT_TRUE(same_expression(find_quantity(to, "bytes_to_device")->expr, "0"));
    EXPECT_FALSE(result.remarks[1].approximate);
}

TEST(Transfers, RecordsMoveWithTheirCPadding) {
    auto result = feedback_for_example("complexmul/complexmul.mcl", "accelerator", {{"n", 10}}, kPass);
    ASSERT_EQ(result.diagnostics, "");
    ASSERT_EQ(result.remarks.size(), 2u) << describe(result.remarks);
    // Complex { float real; float imag; }: 8 bytes; a and b go in, c comes out.
    const NamedQuantity* to = find_quantity(result.remarks[0], "bytes_to_device");
    ASSERT_NE(to, nullptr);
    ASSERT_TRUE(to->value);
    EXPECT_DOUBLE_EQ(*to->value, 160.0) << describe(result.remarks);
    EXPECT_DOUBLE_EQ(*find_quantity(result.remarks[1], "bytes_from_device")->value, 80.0);

    // {byte; float[3]; double; int}: 1 + 3 pad + 12 + 8 + 4 + 4 pad = 32
    // bytes, as C lays it out and the runtime moves it (the fields alone
    // are 25).
    auto padded = feedback_for(R"(module m;
import accelerator;
type P {
    byte kind;
    float[3] position;
    double mass;
    int steps;
}
accelerator void f(int n, const P[n] p, P[n] q) {
    foreach (int i in n threads) {
        q[i] = p[i];
    }
}
)", "", {}, kPass);
    ASSERT_EQ(padded.diagnostics, "");
    ASSERT_EQ(padded.remarks.size(), 2u) << describe(padded.remarks);
    EXPECT_TRUE(same_expression(find_quantity(padded.remarks[0], "bytes_to_device")->expr, "32*n"))
        << describe(padded.remarks);
    EXPECT_THAT(padded.remarks[1].message, HasSubstr("q (32*n)"));
}

}  // namespace
}  // namespace mcl::feedback
