#include "support/ParseSupport.h"

#include <fmt/format.h>

#include "support/Utf8.h"

namespace mcl {

SourceLocation token_location(uint32_t file, const antlr4::Token* t) {
    if (!t) return {file, 0, 0};
    return {file, static_cast<uint32_t>(t->getLine()),
            static_cast<uint32_t>(t->getCharPositionInLine() + 1)};
}

void SyntaxErrorListener::syntaxError(antlr4::Recognizer*, antlr4::Token* offending, size_t line,
                                      size_t column, const std::string& msg, std::exception_ptr) {
    std::string message = msg;
    if (offending && offending->getType() == unexpected_char_type_)
        message = fmt::format("unexpected character '{}'", offending->getText());
    diags_.error({file_, static_cast<uint32_t>(line), static_cast<uint32_t>(column + 1)},
                 "syntax error: " + message);
}

bool check_utf8(uint32_t file, const SourceManager& sources, DiagnosticEngine& diags) {
    auto bad = first_invalid_utf8(sources.text(file));
    if (!bad) return true;
    diags.error(sources.location_of_offset(file, *bad), "invalid UTF-8 in the input");
    return false;
}

bool check_nesting(antlr4::CommonTokenStream& tokens, uint32_t file, DiagnosticEngine& diags) {
    int depth = 0;
    int statement_tokens = 0;
    for (antlr4::Token* t : tokens.getTokens()) {
        const std::string text = t->getText();
        if (text == ";" || text == "{" || text == "}") {
            statement_tokens = 0;
        } else if (++statement_tokens > kMaxStatementTokens) {
            diags.error(token_location(file, t),
                        fmt::format("statement longer than {} tokens", kMaxStatementTokens));
            return false;
        }
        if (text == "{" || text == "(" || text == "[") {
            if (++depth > kMaxNesting) {
                diags.error(token_location(file, t),
                            fmt::format("nesting deeper than {} levels", kMaxNesting));
                return false;
            }
        } else if (text == "}" || text == ")" || text == "]") {
            depth = depth > 0 ? depth - 1 : 0;
        }
    }
    return true;
}

}  // namespace mcl
