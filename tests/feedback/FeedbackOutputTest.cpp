// The output forms: the JSON shape tools read, and SARIF 2.1.0 structure.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "feedback/FeedbackOutput.h"
#include "feedback/Symbolic.h"

namespace mcl::feedback {
namespace {

std::vector<Remark> sample(SourceManager& sources, Params& params) {
    uint32_t file = sources.add_buffer("k.mcl", "line one\nperfect void k(int n) { }\n");
    Symbols symbols(params);
    Remark r;
    r.kind = RemarkKind::DataReuse;
    r.location = {file, 2, 14};
    r.message = "a[i] is reused";
    r.quantities.push_back(symbols.quantity("reuse", 2 * GiNaC::ex(symbols.symbol("n"))));
    r.quantities.push_back(symbols.quantity("other", GiNaC::ex(symbols.symbol("m"))));
    return {r};
}

TEST(FeedbackOutput, JsonShape) {
    SourceManager sources;
    Params params{{"n", 3}};
    nlohmann::json j = remarks_to_json(sample(sources, params), sources);
    const auto& r = j.at("remarks").at(0);
    EXPECT_EQ(r.at("kind"), "data-reuse");
    EXPECT_EQ(r.at("file"), "k.mcl");
    EXPECT_EQ(r.at("line"), 2);
    EXPECT_EQ(r.at("column"), 14);
    EXPECT_EQ(r.at("message"), "a[i] is reused");
    EXPECT_EQ(r.at("quantities").at("reuse").at("expr"), "2*n");
    EXPECT_EQ(r.at("quantities").at("reuse").at("value"), 6.0);
    EXPECT_FALSE(r.at("quantities").at("other").contains("value")) << "m has no value";
}

TEST(FeedbackOutput, SarifStructure) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    Params params;
    auto remarks = sample(sources, params);
    diags.warning(remarks[0].location, "a warning");
    nlohmann::json s = remarks_to_sarif(remarks, diags);
    EXPECT_EQ(s.at("version"), "2.1.0");
    const auto& run = s.at("runs").at(0);
    EXPECT_EQ(run.at("tool").at("driver").at("name"), "mclc");
    const auto& results = run.at("results");
    ASSERT_EQ(results.size(), 2u);
    std::set<std::string> rule_ids;
    for (const auto& rule : run.at("tool").at("driver").at("rules")) rule_ids.insert(rule.at("id"));
    for (const auto& result : results) {
        EXPECT_TRUE(rule_ids.count(result.at("ruleId"))) << "every ruleId is a declared rule";
        EXPECT_THAT(std::string(result.at("level")), ::testing::AnyOf("note", "warning", "error"));
        EXPECT_FALSE(std::string(result.at("message").at("text")).empty());
        const auto& physical = result.at("locations").at(0).at("physicalLocation");
        EXPECT_EQ(physical.at("artifactLocation").at("uri"), "k.mcl");
        EXPECT_EQ(physical.at("region").at("startLine"), 2);
        EXPECT_GE(physical.at("region").at("startColumn"), 1);
    }
    EXPECT_EQ(results[1].at("properties").at("quantities").at("reuse").at("expr"), "2*n");
}

TEST(Symbolic, StableCanonicalText) {
    Params params;
    Symbols symbols(params);
    GiNaC::ex h = symbols.symbol("h"), fh = symbols.symbol("fh"), m = symbols.symbol("m"), n = symbols.symbol("n");
    EXPECT_EQ(Symbols::text(h * fh / (h + fh)), "(fh*h)/(fh+h)");
    EXPECT_EQ(Symbols::text(4 * n * m + 4 * m - n * n), "4*m*n-n^2+4*m");
    EXPECT_EQ(Symbols::text(GiNaC::ex(0)), "0");
}

}  // namespace
}  // namespace mcl::feedback
