// Unit normalisation: capacities to bytes (binary prefixes), rates to
// bytes/s and frequencies to Hz (decimal prefixes), cycles, bits.
#include <gtest/gtest.h>

#include "hdl/ParseHdl.h"
#include "hdl/Quantity.h"

namespace mcl::hdl {
namespace {

// Evaluates `value` as written after `p = ` in a memory block.
Evaluated<Quantity> eval(const std::string& value, Dimension d, bool unlimited = true) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    uint32_t f = sources.add_buffer("q.hdl", "hardware_description q;\nmemory m { p = " + value + "; }\n");
    auto desc = parse_hdl(f, sources, diags);
    if (!desc) return EvalError{{}, "parse error"};
    const auto& p = std::get<PropertyStmt>(desc->blocks[0]->statements[0]);
    return evaluate_quantity(p.value, p.unit, d, unlimited);
}

int64_t value(const std::string& text, Dimension d) {
    auto q = eval(text, d);
    if (auto* e = std::get_if<EvalError>(&q)) ADD_FAILURE() << text << ": " << e->message;
    return std::holds_alternative<Quantity>(q) ? std::get<Quantity>(q).value : -1;
}

TEST(Quantity, Bytes) {
    EXPECT_EQ(value("64B", Dimension::Bytes), 64);
    EXPECT_EQ(value("64 B", Dimension::Bytes), 64);
    EXPECT_EQ(value("48 kB", Dimension::Bytes), 48 * 1024);
    EXPECT_EQ(value("2 GB", Dimension::Bytes), 2LL << 30);
    EXPECT_EQ(value("32768 * 32 bit", Dimension::Bytes), 32768 * 4);
    EXPECT_EQ(value("512 bits", Dimension::Bytes), 64);
    EXPECT_EQ(value("(1 + 3) * 16 MB", Dimension::Bytes), 64LL << 20);
}

TEST(Quantity, RatesFrequenciesCyclesBits) {
    EXPECT_EQ(value("8 GB/s", Dimension::BytesPerSecond), 8'000'000'000);
    EXPECT_EQ(value("100 Gbit/s", Dimension::BytesPerSecond), 12'500'000'000);
    EXPECT_EQ(value("3696 MHz", Dimension::Hertz), 3'696'000'000);
    EXPECT_EQ(value("1 cycle", Dimension::Cycles), 1);
    EXPECT_EQ(value("1000 cycles", Dimension::Cycles), 1000);
    EXPECT_EQ(value("384 bits", Dimension::Bits), 384);
    EXPECT_EQ(value("8 B", Dimension::Bits), 64);
    EXPECT_EQ(value("17 % 5", Dimension::Count), 2);
}

TEST(Quantity, Unlimited) {
    auto q = eval("unlimited bit/s", Dimension::BytesPerSecond);
    ASSERT_TRUE(std::holds_alternative<Quantity>(q));
    EXPECT_TRUE(std::get<Quantity>(q).unlimited);
    EXPECT_TRUE(std::holds_alternative<EvalError>(eval("unlimited cycles", Dimension::Cycles, false)));
}

TEST(Quantity, Errors) {
    auto message = [](const std::string& text, Dimension d) {
        auto q = eval(text, d);
        return std::holds_alternative<EvalError>(q) ? std::get<EvalError>(q).message : std::string("ok");
    };
    EXPECT_EQ(message("8 GB", Dimension::BytesPerSecond).rfind("wrong unit 'GB'", 0), 0u);
    EXPECT_EQ(message("8", Dimension::Hertz).rfind("missing unit", 0), 0u);
    EXPECT_EQ(message("8 B", Dimension::Count), "unexpected unit 'B'");
    EXPECT_EQ(message("1 / 0", Dimension::Count), "division by zero");
    EXPECT_EQ(message("4611686018427387904 * 4", Dimension::Count), "value does not fit in 64 bits");
    EXPECT_EQ(message("7 bit", Dimension::Bytes), "7 bit is not a whole number of bytes");
    EXPECT_EQ(message("\"x\"", Dimension::Count), "expected an integer expression");
}

}  // namespace
}  // namespace mcl::hdl
