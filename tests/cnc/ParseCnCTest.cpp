// The .cnc parser builds our own AST with locations (cnc/ParseCnC.h).
#include "cnc/ParseCnC.h"

#include <gtest/gtest.h>

namespace mcl::cnc {
namespace {

struct Parsed {
    SourceManager sources;
    DiagnosticEngine diags{sources};
    std::optional<Graph> graph;
};

std::unique_ptr<Parsed> parse(const std::string& text) {
    auto p = std::make_unique<Parsed>();
    uint32_t file = p->sources.add_buffer("t.cnc", text);
    p->graph = parse_cnc(file, p->sources, p->diags);
    return p;
}

TEST(ParseCnC, EveryStatement) {
    auto p = parse(R"(import a.b.filters;
|n 1024|;
|t -0.25|;
[float[n, n + 1] frame];
<int [2] tile>;
(blur);
<tile> :: (blur @ CPU = 10, GPU = 20);
[frame : i, j - 1], [frame : i, (j + 1) * 2] -> (blur : i, j) -> [frame : i + 1, j];
env -> <tile : {0 .. n - 1}, {0 .. 3}>, [frame : {0 .. 7}, {0 .. 1}];
env <- [frame : {8 .. 8}, {0 .. 1}];
)");
    ASSERT_TRUE(p->graph) << p->diags.diagnostics().size();
    const Graph& g = *p->graph;
    ASSERT_EQ(g.imports.size(), 1u);
    EXPECT_EQ(g.imports[0].path, (std::vector<std::string>{"a", "b", "filters"}));
    ASSERT_EQ(g.constants.size(), 2u);
    EXPECT_FALSE(g.constants[0].is_float);
    EXPECT_EQ(g.constants[0].int_value, 1024);
    EXPECT_TRUE(g.constants[1].is_float);
    EXPECT_DOUBLE_EQ(g.constants[1].float_value, -0.25);
    ASSERT_EQ(g.items.size(), 1u);
    EXPECT_EQ(g.items[0].element, "float");
    EXPECT_EQ(g.items[0].extents.size(), 2u);
    EXPECT_EQ(g.items[0].location.line, 4u);
    EXPECT_EQ(g.items[0].location.column, 18u);
    ASSERT_EQ(g.tags.size(), 1u);
    EXPECT_EQ(g.tags[0].components, 2);
    ASSERT_EQ(g.prescriptions.size(), 1u);
    ASSERT_EQ(g.prescriptions[0].affinity.size(), 2u);
    EXPECT_EQ(g.prescriptions[0].affinity[1].kind, "GPU");
    EXPECT_EQ(g.prescriptions[0].affinity[1].weight, 20);
    ASSERT_EQ(g.relations.size(), 1u);
    const Relation& r = g.relations[0];
    EXPECT_EQ(r.gets.size(), 2u);
    EXPECT_EQ(r.puts.size(), 1u);
    EXPECT_EQ(r.step.components, (std::vector<std::string>{"i", "j"}));
    const Expr& second = *r.gets[1].tag[1];  // (j + 1) * 2
    EXPECT_EQ(second.kind, Expr::Kind::Binary);
    EXPECT_EQ(second.op, '*');
    EXPECT_EQ(second.operands[0]->op, '+');
    ASSERT_EQ(g.env_puts.size(), 2u);
    EXPECT_TRUE(g.env_puts[0].is_tag);
    EXPECT_EQ(g.env_puts[0].ranges.size(), 2u);
    ASSERT_EQ(g.env_gets.size(), 1u);
    EXPECT_EQ(g.env_gets[0].ranges[0].low->value, 8);
}

TEST(ParseCnC, RelationsWithoutGetsOrPuts) {
    auto p = parse("(s : k) -> [x : k];\n[x : k] -> (t : k);\n");
    ASSERT_TRUE(p->graph);
    EXPECT_TRUE(p->graph->relations[0].gets.empty());
    EXPECT_EQ(p->graph->relations[0].puts.size(), 1u);
    EXPECT_EQ(p->graph->relations[1].gets.size(), 1u);
    EXPECT_TRUE(p->graph->relations[1].puts.empty());
}

TEST(ParseCnC, ErrorsAreLocatedAndNothingIsBuilt) {
    for (const char* text : {"(blur;\n", "[float[n] x;\n", "|n 99999999999999999999|;\n", "<int [2] t>\n",
                             "env -> [x : {0 .. }];\n", "\xff\xfe;\n", "[x : k] -> -> (s : k);\n"}) {
        auto p = parse(text);
        EXPECT_FALSE(p->graph) << text;
        ASSERT_FALSE(p->diags.diagnostics().empty()) << text;
        EXPECT_TRUE(p->diags.diagnostics().front().location.valid()) << text;
    }
}

TEST(ParseCnC, DeepNestingIsRejectedNotOverflowed) {
    std::string deep = "[x : " + std::string(5000, '(') + "k" + std::string(5000, ')') + "] -> (s : k);\n";
    auto p = parse(deep);
    EXPECT_FALSE(p->graph);
}

}  // namespace
}  // namespace mcl::cnc
