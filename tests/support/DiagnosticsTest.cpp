// The diagnostics engine: clang-style text with source line and caret, notes,
// counts and JSON.
#include <string>

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

TEST(Diagnostics, CaretCountsCodePointsAndKeepsTabsAfterThem) {
    SourceManager sources;
    uint32_t f = sources.add_buffer("a.mcl", "/* \xc3\xa9 */\tx = ;\n");
    DiagnosticEngine diags(sources);
    auto& d = diags.error({f, 1, 13}, "expected an expression");
    EXPECT_EQ(diags.format_text(d),
              "a.mcl:1:13: error: expected an expression\n  /* \xc3\xa9 */\tx = ;\n         \t    ^\n");
}

TEST(Diagnostics, LongLinesAreShownAroundTheCaret) {
    // One line of 200000 columns (a generated file, or one huge line): the
    // diagnostic shows a window of it around the caret, cut with "...".
    std::string line(100000, 'a');
    line += 'X';
    line += std::string(99999, 'b');
    SourceManager sources;
    uint32_t f = sources.add_buffer("long.mcl", line + "\n");
    DiagnosticEngine diags(sources);
    std::string text = diags.format_text(diags.error({f, 1, 100001}, "here"));
    EXPECT_LT(text.size(), 400u);
    size_t shown_start = text.find("\n  ...") + 1;
    size_t caret_start = text.find('\n', shown_start) + 1;
    ASSERT_NE(caret_start, 0u);
    std::string shown = text.substr(shown_start, caret_start - 1 - shown_start);
    std::string caret = text.substr(caret_start);
    EXPECT_EQ(shown.substr(0, 5), "  ...");
    EXPECT_EQ(shown.substr(shown.size() - 3), "...");
    EXPECT_EQ(caret.back(), '\n');
    EXPECT_EQ(shown[caret.find('^')], 'X');
    EXPECT_EQ(caret.find_first_not_of(' '), caret.find('^'));

    // Near the start only the end is cut; a caret past a short line's end
    // stays just after it.
    std::string near_start = diags.format_text(diags.error({f, 1, 3}, "there"));
    EXPECT_EQ(near_start.find("\n  aaa"), near_start.find('\n'));
    EXPECT_NE(near_start.find("a...\n    ^\n"), std::string::npos);
    uint32_t g = sources.add_buffer("short.mcl", "ab\n");
    EXPECT_EQ(diags.format_text(diags.error({g, 1, 9}, "past the end")),
              "short.mcl:1:9: error: past the end\n  ab\n    ^\n");
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
