// Helpers for the MCPL tests: parse a text held in memory, and compare ASTs
// without their source locations.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/ast/Ast.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl::testing {

struct ParsedModule {
    std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
    std::unique_ptr<DiagnosticEngine> diags = std::make_unique<DiagnosticEngine>(*sources);
    std::unique_ptr<Module> module;  // null when the text has errors

    // All diagnostics as clang-style text, for failure messages.
    std::string text() const;
};

ParsedModule parse_text(const std::string& text, const std::string& path = "test.mcl");

// The module's JSON dump with every location and file name removed: two
// modules that differ only in layout have equal skeletons.
nlohmann::json ast_skeleton(const ParsedModule& parsed);

// Checks (with GoogleTest expectations) that `text` parses and is a fixed
// point of print . parse: printing, reparsing and printing again gives the
// same text and the same AST.
void expect_round_trip(const std::string& text);

}  // namespace mcl::mcpl::testing
