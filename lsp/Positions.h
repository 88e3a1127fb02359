// Where things are, in the two ways of counting: the compiler's
// SourceLocation (1-based line, 1-based column in code points, as the
// parsers count) and LSP's Position (0-based line, 0-based character in
// UTF-16 code units), and the file: URIs of LSP against file paths.
//
// Needs: the text of the line a position is on (SourceManager).
// Guarantees: conversions never throw and clamp to the line's end; a
// column of 0 (a whole-line or whole-file location) is the line's start.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "support/SourceManager.h"

namespace mcl::lsp {

// `file:///a%20b/c.mcl` -> `/a b/c.mcl`; a URI of another scheme stays as
// it is (it names an unsaved buffer, which has no directory to import from).
std::string uri_to_path(const std::string& uri);
std::string path_to_uri(const std::string& path);

// The UTF-16 offset of 1-based code-point `column` in `line`, and back.
uint32_t utf16_character(std::string_view line, uint32_t column);
uint32_t column_of_character(std::string_view line, uint64_t character);

// {"line", "character"} of a location in `sources`.
nlohmann::json position_json(const SourceManager& sources, SourceLocation loc);
// The range from `loc` over `length` code points of its line.
nlohmann::json range_json(const SourceManager& sources, SourceLocation loc, uint32_t length);
// The code points of the token that starts at `loc`: an identifier or a
// number as a whole, otherwise one character (0 past the line's end).
uint32_t token_length(const SourceManager& sources, SourceLocation loc);

}  // namespace mcl::lsp
