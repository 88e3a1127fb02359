// UTF-8 validation and stepping. The ANTLR runtime throws on malformed
// UTF-8, so the parsers check their input first and report the first bad
// byte instead. Columns in locations count code points, so whatever maps a
// column to bytes (a caret, an editor's position) steps code point by code
// point.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace mcl {

// Offset of the first byte that is not part of well-formed UTF-8 (no
// overlong forms, no surrogates, nothing above U+10FFFF); nullopt if none.
std::optional<size_t> first_invalid_utf8(std::string_view text);

// The offset of the code point after the one at `offset` (by its lead byte),
// at most text.size().
size_t next_code_point(std::string_view text, size_t offset);

}  // namespace mcl
