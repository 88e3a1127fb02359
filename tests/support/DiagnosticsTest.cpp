// The diagnostics engine: clang-style text with source line and caret, notes,
// counts and JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/Diagnostics.h"
#include "support/Spelling.h"

namespace mcl {
namespace {

TEST(Diagnostics, ClangStyleTextWithCaret) {
    SourceManager sources;
    uint32_t f = sources.add_buffer("a.hdl", "first line\n\tsecond line\n");
    DiagnosticEngine diags(sources);
    auto& d = diags.error({f, 2, 9}, "something is wrong");
    DiagnosticEngine::add_note(d, {f, 1, 1}, "see here");
    diags.warning({}, "no location");
    EXPECT_EQ(diags.format_text(d),
              "a.hdl:2:9: error: something is wrong\n  \tsecond line\n  \t       ^\n"
              "a.hdl:1:1: note: see here\n  first line\n  ^\n");
    EXPECT_EQ(diags.error_count(), 1u);
    EXPECT_EQ(diags.error_count_in(f), 1u);
    EXPECT_EQ(diags.format_text(diags.diagnostics()[1]), "mclc: warning: no location\n");
}

TEST(Diagnostics, RepeatsAreReportedOnce) {
    SourceManager sources;
    uint32_t f = sources.add_buffer("a.mcl", "x\n");
    DiagnosticEngine diags(sources);
    DiagnosticEngine::add_note(diags.error({f, 1, 1}, "the fault"), {f, 1, 1}, "a note");
    DiagnosticEngine::add_note(diags.error({f, 1, 1}, "the fault"), {f, 1, 1}, "a note");
    diags.error({f, 1, 1}, "another fault");
    diags.warning({f, 1, 1}, "the fault");
    diags.error({f, 1, 2}, "the fault");
    EXPECT_EQ(diags.error_count(), 3u);
    ASSERT_EQ(diags.diagnostics().size(), 4u);
    EXPECT_EQ(diags.diagnostics()[0].notes.size(), 1u);
}

TEST(Diagnostics, Json) {
    SourceManager sources;
    uint32_t f = sources.add_buffer("a.hdl", "x\n");
    DiagnosticEngine diags(sources);
    diags.remark({f, 1, 1}, "a remark");
    nlohmann::json j = diags.to_json();
    ASSERT_EQ(j.size(), 1u);
    EXPECT_EQ(j[0]["severity"], "remark");
    EXPECT_EQ(j[0]["file"], "a.hdl");
    EXPECT_EQ(j[0]["line"], 1);
    EXPECT_EQ(j[0]["column"], 1);
    EXPECT_EQ(j[0]["message"], "a remark");
    EXPECT_FALSE(diags.has_errors());
}

TEST(Spelling, SuggestsCloseNamesOnly) {
    EXPECT_EQ(closest_match("capcity", {"capacity", "latency"}), "capacity");
    EXPECT_EQ(closest_match("zzz", {"capacity", "latency"}), "");
    EXPECT_EQ(did_you_mean("perfekt", {"perfect"}), "; did you mean 'perfect'?");
    EXPECT_EQ(closest_match("mian", {"main", "reg"}), "main") << "a transposition is one edit";
    EXPECT_EQ(closest_match("thred", {"threads", "blocks"}), "threads");
}

}  // namespace
}  // namespace mcl
