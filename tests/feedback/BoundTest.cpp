// The bound (roofline): rates derived from the descriptions equal the
// vendors' peak numbers, compulsory traffic is counted exactly, and kernels
// land on the side of the ridge they belong to.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "feedback/Bound.h"
#include "hdl/HardwareLibrary.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::vector<NamedPass> kPass = testing::only_pass("bound");

struct Library {
    SourceManager sources;
    DiagnosticEngine diags{sources};
    hdl::HardwareLibrary library{sources, diags};
    Library() { library.load(MCL_STDLIB_HW_DIR, {}); }
    const hdl::HardwareModel& model(const std::string& name) const {
        const hdl::HardwareModel* m = library.find(name);
        if (!m) throw std::runtime_error("no description " + name);
        return *m;
    }
};

const Library& library() {
    static const Library l;
    return l;
}

Remark bound_remark(const FeedbackResult& r) {
    auto bounds = of_kind(r.remarks, RemarkKind::Bound);
    if (bounds.size() != 1) throw std::runtime_error("expected one bound remark:\n" + describe(r.remarks) + r.diagnostics);
    return bounds[0];
}

TEST(Bound, IsTheFirstPass) { EXPECT_STREQ(feedback_passes().front().name, "bound"); }

TEST(Bound, HopperRatesAreTheDatasheetNumbers) {
    LevelRates r = rates_of(library().model("hopper"));
    // H100 SXM5: 66.9 TFLOPS FP32 = 16896 cores x 2 (FMA) x 1.98 GHz; 3.35 TB/s HBM3.
    ASSERT_TRUE(r.operations_per_second) << r.compute_text;
    EXPECT_DOUBLE_EQ(*r.operations_per_second, 16896.0 * 2 * 1.98e9);
    EXPECT_NEAR(*r.operations_per_second / 1e12, 66.9, 0.05);
    EXPECT_THAT(r.compute_text, HasSubstr("16896 lanes"));
    EXPECT_THAT(r.compute_text, HasSubstr("fma"));
    ASSERT_TRUE(r.bytes_per_second) << r.memory_text;
    EXPECT_DOUBLE_EQ(*r.bytes_per_second, 3350e9);
    EXPECT_THAT(r.memory_text, HasSubstr("mem_ic"));
    std::optional<Roofline> roof = roofline_of(library().model("hopper"));
    ASSERT_TRUE(roof);
    EXPECT_NEAR(roof->ridge(), 66.90816e12 / 3.35e12, 1e-9);
    EXPECT_DOUBLE_EQ(roof->attainable(1.0), 3350e9);
    EXPECT_DOUBLE_EQ(roof->attainable(1000.0), roof->operations_per_second);
}

TEST(Bound, OtherLeavesGiveTheirVendorsPeaks) {
    struct Expected {
        const char* level;
        double operations, bytes;
    };
    for (const Expected& e : {
             Expected{"fermi", 480.0 * 2 * 1.401e9, 177408e6},      // GTX 480: 1345 GFLOPS, 177.4 GB/s
             Expected{"mi100", 7680.0 * 2 * 1.502e9, 1228.8e9},     // MI100: 23.1 TFLOPS FP32, 1.23 TB/s
             Expected{"xeon_phi", 960.0 * 2 * 1.053e9, 320e9},      // 5110P: 2 x 1.011 TFLOPS, 320 GB/s
         }) {
        std::optional<Roofline> roof = roofline_of(library().model(e.level));
        ASSERT_TRUE(roof) << e.level;
        EXPECT_DOUBLE_EQ(roof->operations_per_second, e.operations) << e.level;
        EXPECT_DOUBLE_EQ(roof->bytes_per_second, e.bytes) << e.level;
    }
}

TEST(Bound, DoublePrecisionRatesAreTheVendorsPeaks) {
    struct Expected {
        const char* level;
        double operations;
    };
    for (const Expected& e : {
             Expected{"hopper", 16896.0 * 1.98e9},   // H100 SXM5: 34 TFLOPS FP64, half of FP32
             Expected{"mi100", 7680.0 * 1.502e9},    // MI100: 11.5 TFLOPS FP64 vector
             Expected{"xeon_phi", 960.0 * 1.053e9},  // 5110P: 1.011 TFLOPS
         }) {
        LevelRates r = rates_of(library().model(e.level));
        ASSERT_TRUE(r.double_operations_per_second) << e.level;
        EXPECT_DOUBLE_EQ(*r.double_operations_per_second, e.operations) << e.level;
    }
    EXPECT_FALSE(rates_of(library().model("fermi")).double_operations_per_second) << "not documented for the GTX 480";
}

// Time in double precision at the double rate: 2n of the 3n computations
// (a product and a sum per element in double, a conversion to float).
TEST(Bound, ComputationsInDoublePrecisionTakeTheDoubleRate) {
    const std::string kernel = R"(module k;
import perfect;
perfect void k(int n, float[n] a, const double[n] b) {
    foreach (int i in n threads) {
        a[i] = toFloat(b[i] * b[i] + 1.0);
    }
}
)";
    const double n = 1e9;
    FeedbackResult r = feedback_for(kernel, "hopper", {{"n", n}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    Remark b = bound_remark(r);
    const NamedQuantity* doubles = find_quantity(b, "double_operations");
    ASSERT_TRUE(doubles) << b.message;
    EXPECT_TRUE(same_expression(doubles->expr, "2*n")) << Symbols::text(doubles->expr);
    EXPECT_TRUE(same_expression(find_quantity(b, "operations")->expr, "3*n"));
    ASSERT_TRUE(quantity_value(b, "compute_time"));
    EXPECT_DOUBLE_EQ(*quantity_value(b, "compute_time"), n / (16896.0 * 2 * 1.98e9) + 2 * n / (16896.0 * 1.98e9));
    EXPECT_THAT(b.message, HasSubstr("(2 G in double precision at 33.5 T/s)"));

    FeedbackResult on_fermi = feedback_for(kernel, "fermi", {{"n", n}}, kPass);
    ASSERT_EQ(on_fermi.diagnostics, "");
    Remark f = bound_remark(on_fermi);
    EXPECT_DOUBLE_EQ(*quantity_value(f, "compute_time"), 3 * n / (480.0 * 2 * 1.401e9));
    EXPECT_THAT(f.message, HasSubstr("in double precision, taken at the single-precision rate: fermi gives its lanes "
                                     "no op(\"double\", k)"));
}

TEST(Bound, AbstractLevelsHaveNoRoofline) {
    LevelRates perfect = rates_of(library().model("perfect"));
    EXPECT_TRUE(perfect.compute_unlimited);
    EXPECT_TRUE(perfect.memory_unlimited);
    EXPECT_FALSE(perfect.operations_per_second);
    EXPECT_FALSE(roofline_of(library().model("perfect")));
    LevelRates gpu = rates_of(library().model("gpu"));
    EXPECT_FALSE(gpu.operations_per_second);
    EXPECT_THAT(gpu.compute_text, HasSubstr("no clock_frequency"));
    EXPECT_THAT(gpu.memory_text, HasSubstr("no bandwidth"));
    EXPECT_FALSE(roofline_of(library().model("x86_avx2"))) << "a VM: no clock, no memory bandwidth";
}

TEST(Bound, GesummvAtHopperIsMemoryBound) {
    const double n = 8192;
    FeedbackResult r = feedback_for_example("gesummv/gesummv.mcl", "hopper", {{"n", n}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    Remark b = bound_remark(r);
    // a and b (n x n) and x (n) are read, y (n) is written: (2n^2 + 2n) floats.
    const NamedQuantity* bytes = find_quantity(b, "bytes");
    ASSERT_TRUE(bytes);
    EXPECT_TRUE(same_expression(bytes->expr, "8*n^2+8*n")) << Symbols::text(bytes->expr);
    EXPECT_DOUBLE_EQ(*bytes->value, 536936448.0);
    EXPECT_EQ(*bytes->value, (2 * n * n + 2 * n) * 4);
    ASSERT_TRUE(quantity_value(b, "time"));
    EXPECT_DOUBLE_EQ(*quantity_value(b, "time"), 536936448.0 / 3350e9);
    EXPECT_DOUBLE_EQ(*quantity_value(b, "time"), *quantity_value(b, "memory_time"));
    EXPECT_LT(*quantity_value(b, "compute_time"), *quantity_value(b, "memory_time"));
    EXPECT_NEAR(*quantity_value(b, "intensity"), 0.5, 0.01);
    EXPECT_THAT(b.message, HasSubstr("limited by memory bandwidth"));
    EXPECT_THAT(b.message, HasSubstr("536936448 bytes at 3350 GB/s"));
    EXPECT_THAT(b.message, HasSubstr("on hopper"));
    EXPECT_EQ(b.location.line, 8u);
}

TEST(Bound, MatmulAtHopperIsComputeBoundForLargeSizes) {
    const double n = 8192;
    FeedbackResult r =
        feedback_for_example("matmul/matmul.mcl", "hopper", {{"n", n}, {"m", n}, {"p", n}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    Remark b = bound_remark(r);
    // c is read and written, a and b are read.
    const NamedQuantity* bytes = find_quantity(b, "bytes");
    ASSERT_TRUE(bytes);
    EXPECT_TRUE(same_expression(bytes->expr, "8*m*n+4*n*p+4*m*p")) << Symbols::text(bytes->expr);
    EXPECT_DOUBLE_EQ(*bytes->value, 16 * n * n);
    double operations = *quantity_value(b, "operations");
    EXPECT_GE(operations, 2 * n * n * n);
    EXPECT_DOUBLE_EQ(*quantity_value(b, "time"), operations / (16896.0 * 2 * 1.98e9));
    EXPECT_GT(*quantity_value(b, "compute_time"), *quantity_value(b, "memory_time"));
    EXPECT_THAT(b.message, HasSubstr("limited by computation"));
    EXPECT_THAT(b.message, HasSubstr("ridge 20"));
}

TEST(Bound, SmallMatmulAtHopperIsMemoryBound) {
    FeedbackResult r = feedback_for_example("matmul/matmul.mcl", "hopper", {{"n", 4}, {"m", 4}, {"p", 4}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    EXPECT_THAT(bound_remark(r).message, HasSubstr("limited by memory bandwidth"));
}

TEST(Bound, PerfectGivesNoTime) {
    FeedbackResult r = feedback_for_example("gesummv/gesummv.mcl", "", {{"n", 8192}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    Remark b = bound_remark(r);
    EXPECT_DOUBLE_EQ(*quantity_value(b, "bytes"), 536936448.0);
    EXPECT_TRUE(quantity_value(b, "operations"));
    EXPECT_TRUE(quantity_value(b, "intensity"));
    EXPECT_FALSE(find_quantity(b, "time"));
    EXPECT_FALSE(find_quantity(b, "compute_time"));
    EXPECT_FALSE(find_quantity(b, "memory_time"));
    EXPECT_THAT(b.message, HasSubstr("there is no time bound from perfect: unlimited units of core"));
    EXPECT_THAT(b.message, HasSubstr("with unlimited bandwidth"));
}

TEST(Bound, ALevelWithoutNumbersSaysWhatItGives) {
    FeedbackResult r = feedback_for_example("gesummv/gesummv.mcl", "gpu", {{"n", 8192}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    Remark b = bound_remark(r);
    EXPECT_FALSE(find_quantity(b, "time"));
    EXPECT_THAT(b.message, HasSubstr("the time needs rates that gpu does not describe: it gives 512 lanes of alu "
                                     "(processors 16 x alus 32) but no clock_frequency; mem_ic"));
}

TEST(Bound, MissingValuesAreNamed) {
    FeedbackResult r = feedback_for_example("matmul/matmul.mcl", "hopper", {{"n", 1024}}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    Remark b = bound_remark(r);
    EXPECT_THAT(b.message, HasSubstr("needs values for m, p: --param m=... --param p=..."));
    EXPECT_FALSE(quantity_value(b, "time"));
    EXPECT_TRUE(find_quantity(b, "compute_time"));
    EXPECT_TRUE(find_quantity(b, "memory_time"));
    EXPECT_THAT(b.message, HasSubstr("the larger of"));
}

TEST(Bound, OnlyKernelsGetABound) {
    // cnd() returns a value: it runs inside blackscholes' threads.
    FeedbackResult r = feedback_for_example("blackscholes/blackscholes.mcl", "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    auto bounds = of_kind(r.remarks, RemarkKind::Bound);
    ASSERT_EQ(bounds.size(), 1u) << describe(r.remarks);
    EXPECT_THAT(bounds[0].message, HasSubstr("20*n bytes"));
}

TEST(Bound, WrittenScalarsCountAndReadScalarsDoNot) {
    FeedbackResult r = feedback_for(R"(module k;
import perfect;
perfect void k(int n, float s, float[n] a, const double[n] b) {
    foreach (int i in n threads) {
        a[i] += s * toFloat(b[i]);
    }
}
)",
                                    "", {}, kPass);
    ASSERT_EQ(r.diagnostics, "");
    const NamedQuantity* bytes = find_quantity(bound_remark(r), "bytes");
    ASSERT_TRUE(bytes);
    EXPECT_TRUE(same_expression(bytes->expr, "2*4*n+8*n")) << Symbols::text(bytes->expr);
}

}  // namespace
}  // namespace mcl::feedback::testing
