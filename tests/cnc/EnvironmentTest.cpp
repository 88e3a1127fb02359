// What the environment of a graph puts and gets: the tags of its ranges
// (cnc/CheckGraph.h, range_tags and range_tag_count) and the fields of the generated
// Environment (cnc/GenerateGraph.h, environment_fields).
#include <gtest/gtest.h>

#include "cnc/GenerateGraph.h"
#include "cnc/ParseCnC.h"

namespace mcl::cnc {
namespace {

Graph parse(const std::string& text) {
    SourceManager sources;
    DiagnosticEngine diags{sources};
    std::optional<Graph> graph = parse_cnc(sources.add_buffer("t.cnc", text), sources, diags);
    EXPECT_TRUE(graph) << diags.diagnostics().size();
    return graph ? std::move(*graph) : Graph{};
}

TEST(RangeTags, LaterRangesUseEarlierNamesAndConstants) {
    Graph g = parse("|T 3|;\n<int [2] t>;\nenv -> <t : k = {0 .. T - 1}, {k + 1 .. T - 1}>;\n");
    ASSERT_EQ(g.env_puts.size(), 1u);
    CheckedGraph checked;
    checked.int_constants["T"] = 3;
    EXPECT_EQ(range_tags(g.env_puts[0], checked), (std::vector<TagValue>{{0, 1}, {0, 2}, {1, 2}}));
}

TEST(RangeTags, ARangeNameShadowsAConstantOnlyInside) {
    Graph g = parse("|k 7|;\n<int [2] t>;\nenv -> <t : k = {-1 .. 0}, {k .. k}>, <t : {k .. k}, {0 .. 0}>;\n");
    ASSERT_EQ(g.env_puts.size(), 2u);
    CheckedGraph checked;
    checked.int_constants["k"] = 7;
    EXPECT_EQ(range_tags(g.env_puts[0], checked), (std::vector<TagValue>{{-1, -1}, {0, 0}}));
    EXPECT_EQ(range_tags(g.env_puts[1], checked), (std::vector<TagValue>{{7, 0}}));
}

TEST(RangeTagCount, CountsWithoutWalkingAndStopsPastTheLimit) {
    Graph g = parse("|T 3|;\n<int [2] t>;\n"
                    "env -> <t : k = {0 .. T - 1}, {k + 1 .. T - 1}>, <t : {0 .. 9}, {-1000000000 .. 1000000000}>,\n"
                    "       <t : k = {0 .. 100000}, {k + T .. T}>;\n");
    ASSERT_EQ(g.env_puts.size(), 3u);
    CheckedGraph checked;
    checked.int_constants["T"] = 3;
    EXPECT_EQ(range_tag_count(g.env_puts[0], checked, 100), 3u);
    EXPECT_EQ(range_tag_count(g.env_puts[0], checked, 3), 3u);
    EXPECT_EQ(range_tag_count(g.env_puts[0], checked, 2), 3u);  // limit + 1: more than 2
    EXPECT_EQ(range_tag_count(g.env_puts[1], checked, 1u << 20), (1u << 20) + 1);
    // one tag, but an outer range longer than the limit is not walked to the end
    EXPECT_EQ(range_tag_count(g.env_puts[2], checked, 1000), 1001u);
    EXPECT_EQ(range_tag_count(g.env_puts[2], checked, 200000), 1u);
}

TEST(EnvironmentFields, KeywordsEscapedAndGetsOfPutItemsApart) {
    Graph g = parse("[float[4] class];\n[float[4] x];\n[float[4] x_gets];\n<int [1] t>;\n"
                    "env -> [class : {0 .. 1}], [x : {0 .. 0}], [class : {2 .. 3}];\n"
                    "env <- [x : {1 .. 1}], [x_gets : {0 .. 0}], [class : {4 .. 4}];\n");
    std::vector<std::tuple<std::string, bool, std::string>> fields;
    for (const EnvironmentField& f : environment_fields(g)) fields.emplace_back(f.item, f.gets, f.name);
    EXPECT_EQ(fields, (std::vector<std::tuple<std::string, bool, std::string>>{{"class", false, "class_"},
                                                                               {"x", false, "x"},
                                                                               {"x_gets", true, "x_gets"},
                                                                               {"x", true, "x_gets_"},
                                                                               {"class", true, "class_gets"}}));
}

}  // namespace
}  // namespace mcl::cnc
