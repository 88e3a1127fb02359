// UTF-8 validation. The ANTLR runtime throws on malformed UTF-8, so the
// parsers check their input first and report the first bad byte instead.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace mcl {

// Offset of the first byte that is not part of well-formed UTF-8 (no
// overlong forms, no surrogates, nothing above U+10FFFF); nullopt if none.
std::optional<size_t> first_invalid_utf8(std::string_view text);

}  // namespace mcl
