// What both ANTLR-based parsers (hdl/ParseHdl, compiler/parse/ParseMcpl)
// share: syntax errors turned into located diagnostics, and the checks that
// keep the ANTLR runtime safe on hostile input (malformed UTF-8, which it
// throws on; nesting so deep, or operator chains so long, that recursive
// descent would exhaust the stack).
// This file and the two parsers are the only places that see ANTLR types.
#pragma once

#include <string>

#include "antlr4-runtime.h"
#include "support/Diagnostics.h"

namespace mcl {

inline constexpr int kMaxNesting = 200;
// Tokens between two statement boundaries (`;`, `{`, `}`): bounds how deep
// an operator chain such as `1 + 1 + ... + 1` nests in the trees that the
// parser builds and every pass walks recursively.
inline constexpr int kMaxStatementTokens = 4000;

SourceLocation token_location(uint32_t file, const antlr4::Token* t);

// Reports ANTLR's syntax errors as "syntax error: ..." at their location;
// a token of type `unexpected_char_type` (the lexer's catch-all rule) is
// reported as an unexpected character.
class SyntaxErrorListener : public antlr4::BaseErrorListener {
public:
    SyntaxErrorListener(uint32_t file, DiagnosticEngine& diags, size_t unexpected_char_type)
        : file_(file), diags_(diags), unexpected_char_type_(unexpected_char_type) {}

    void syntaxError(antlr4::Recognizer*, antlr4::Token* offending, size_t line, size_t column,
                     const std::string& msg, std::exception_ptr) override;

private:
    uint32_t file_;
    DiagnosticEngine& diags_;
    size_t unexpected_char_type_;
};

// False (after reporting) when the file is not valid UTF-8.
bool check_utf8(uint32_t file, const SourceManager& sources, DiagnosticEngine& diags);

// False (after reporting) when brackets nest deeper than kMaxNesting or a
// statement is longer than kMaxStatementTokens.
bool check_nesting(antlr4::CommonTokenStream& tokens, uint32_t file, DiagnosticEngine& diags);

// Runs an ANTLR lexer and parser over `file` the way every front end does:
// malformed UTF-8 and too deep nesting are refused before parsing, syntax
// errors become located diagnostics (the lexer's UNEXPECTED_CHAR token as an
// unexpected character), `start` picks the start rule and `build` turns its
// tree into our AST while the parser, which owns the tree, is alive.
// Returns build's result, or Result{} after any error.
template <typename Lexer, typename Parser, typename Result, typename Start, typename Build>
Result parse_file(uint32_t file, const SourceManager& sources, DiagnosticEngine& diags, Start start, Build build) {
    size_t errors_before = diags.error_count();
    if (!check_utf8(file, sources, diags)) return Result{};
    antlr4::ANTLRInputStream input(sources.text(file));
    Lexer lexer(&input);
    SyntaxErrorListener listener(file, diags, Lexer::UNEXPECTED_CHAR);
    lexer.removeErrorListeners();
    lexer.addErrorListener(&listener);
    antlr4::CommonTokenStream tokens(&lexer);
    tokens.fill();
    if (!check_nesting(tokens, file, diags)) return Result{};
    Parser parser(&tokens);
    parser.removeErrorListeners();
    parser.addErrorListener(&listener);
    auto* tree = start(parser);
    if (diags.error_count() > errors_before) return Result{};
    return build(tree);
}

}  // namespace mcl
