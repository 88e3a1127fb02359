// The HDL parser on the original MCL dialect: header without semicolon,
// units with and without a space, products, operators, strings, [*],
// qualified references, flags and comments.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hdl/ParseHdl.h"

namespace mcl::hdl {
namespace {

struct Parsed {
    SourceManager sources;
    DiagnosticEngine diags{sources};
    std::unique_ptr<Description> d;
};

std::unique_ptr<Parsed> parse(const std::string& text) {
    auto p = std::make_unique<Parsed>();
    uint32_t file = p->sources.add_buffer("t.hdl", text);
    p->d = parse_hdl(file, p->sources, p->diags);
    return p;
}

TEST(ParseHdl, OriginalDialect) {
    auto p = parse(R"(/* a description */
hardware_description fermi   // no semicolon needed here

specializes nvidia;
memory regs { space(reg); addressable = false; capacity = 32768 * 32 bit; }
cache l1 { cache_line_size = 128B; capacity = 48 kB; }
interconnect ic { connects(mem, smps.smp[*]); latency = 20 cycles; bandwidth = 8 GB/s;
                  clock_frequency = 3696 MHz; }
execution_unit core { perfect.cores.core.ops; slots(thread, 1);
  instructions ops { op((+), 1); op((%), 2); op("load", 1); } }
memory_space constant { read_only; default; }
)");
    ASSERT_NE(p->d, nullptr) << p->diags.to_json().dump();
    EXPECT_EQ(p->d->name, "fermi");
    EXPECT_EQ(p->d->specializes, "nvidia");
    ASSERT_EQ(p->d->blocks.size(), 5u);

    const Block& regs = *p->d->blocks[0];
    EXPECT_EQ(regs.kind, BlockKind::Memory);
    const auto& capacity = std::get<PropertyStmt>(regs.statements[2]);
    EXPECT_EQ(capacity.value.kind, Expr::Kind::Binary);
    EXPECT_EQ(capacity.unit->base, "bit");
    EXPECT_EQ(capacity.unit->prefix, 0);

    const Block& l1 = *p->d->blocks[1];
    const auto& line = std::get<PropertyStmt>(l1.statements[0]);
    EXPECT_EQ(line.unit->base, "B");
    const auto& kb = std::get<PropertyStmt>(l1.statements[1]);
    EXPECT_EQ(kb.unit->prefix, 'k');
    EXPECT_EQ(kb.unit->base, "B");

    const Block& ic = *p->d->blocks[2];
    const auto& connects = std::get<ArgPropertyStmt>(ic.statements[0]);
    EXPECT_EQ(connects.args[1].kind, Expr::Kind::AllUnits);
    EXPECT_EQ(connects.args[1].name.str(), "smps.smp");
    const auto& bw = std::get<PropertyStmt>(ic.statements[2]);
    EXPECT_EQ(bw.unit->prefix, 'G');
    EXPECT_EQ(bw.unit->per, "s");
    const auto& clock = std::get<PropertyStmt>(ic.statements[3]);
    EXPECT_EQ(clock.unit->prefix, 'M');
    EXPECT_EQ(clock.unit->base, "Hz");

    const Block& core = *p->d->blocks[3];
    const auto& ref = std::get<ReferenceStmt>(core.statements[0]);
    EXPECT_EQ(ref.target.str(), "perfect.cores.core.ops");
    EXPECT_EQ(ref.target.location.line, 9u);
    EXPECT_EQ(ref.target.location.column, 23u);
    const Block& ops = *std::get<std::unique_ptr<Block>>(core.statements[2]);
    EXPECT_EQ(ops.kind, BlockKind::Instructions);
    EXPECT_EQ(std::get<ArgPropertyStmt>(ops.statements[0]).args[0].op, '+');
    EXPECT_EQ(std::get<ArgPropertyStmt>(ops.statements[1]).args[0].op, '%');
    EXPECT_EQ(std::get<ArgPropertyStmt>(ops.statements[2]).args[0].text, "load");

    const Block& constant = *p->d->blocks[4];
    EXPECT_EQ(std::get<FlagStmt>(constant.statements[0]).name, "read_only");
    EXPECT_EQ(std::get<FlagStmt>(constant.statements[1]).name, "default");
}

TEST(ParseHdl, LocationsOnEveryNode) {
    auto p = parse("hardware_description a;\n\n  memory m {\n    capacity = 2 * 3 kB;\n  }\n");
    ASSERT_NE(p->d, nullptr);
    const Block& m = *p->d->blocks[0];
    EXPECT_EQ(m.location, (SourceLocation{1, 3, 3}));
    EXPECT_EQ(m.name_location, (SourceLocation{1, 3, 10}));
    const auto& cap = std::get<PropertyStmt>(m.statements[0]);
    EXPECT_EQ(cap.location, (SourceLocation{1, 4, 5}));
    EXPECT_EQ(cap.value.location, (SourceLocation{1, 4, 18}));  // the '*'
    EXPECT_EQ(cap.value.operands[0].location, (SourceLocation{1, 4, 16}));
    EXPECT_EQ(cap.unit->location, (SourceLocation{1, 4, 22}));
}

TEST(ParseHdl, SyntaxErrorsAreLocatedAndReturnNull) {
    auto p = parse("hardware_description a;\nmemory m { capacity = ; }\n");
    EXPECT_EQ(p->d, nullptr);
    ASSERT_TRUE(p->diags.has_errors());
    const Diagnostic& d = p->diags.diagnostics().front();
    EXPECT_EQ(d.location.line, 2u);
    EXPECT_EQ(d.location.column, 23u);
    EXPECT_NE(d.message.find("syntax error"), std::string::npos);
}

TEST(ParseHdl, EmptyAndBinaryInputDoNotCrash) {
    EXPECT_EQ(parse("")->d, nullptr);
    EXPECT_EQ(parse(std::string("\0\xff\x01{", 4))->d, nullptr);
    EXPECT_EQ(parse("hardware_description")->d, nullptr);
}

TEST(ParseHdl, DeepNestingIsRejectedNotOverflowed) {
    std::string deep = "hardware_description a;\nmemory m { nr_banks = " + std::string(100000, '(') + "1" +
                       std::string(100000, ')') + "; }\n";
    auto p = parse(deep);
    EXPECT_EQ(p->d, nullptr);
    EXPECT_NE(p->diags.diagnostics().front().message.find("nesting deeper than"), std::string::npos);
}

TEST(ParseHdl, LongOperatorChainsAreRejectedNotOverflowed) {
    std::string chain = "1";
    for (int i = 0; i < 100000; ++i) chain += "+1";
    auto p = parse("hardware_description a;\nmemory m { nr_banks = " + chain + "; }\n");
    EXPECT_EQ(p->d, nullptr);
    EXPECT_NE(p->diags.diagnostics().front().message.find("statement longer than"), std::string::npos);
}

}  // namespace
}  // namespace mcl::hdl
