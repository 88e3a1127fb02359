#include "support/Utf8.h"

#include <algorithm>

namespace mcl {

std::optional<size_t> first_invalid_utf8(std::string_view text) {
    size_t i = 0;
    const size_t n = text.size();
    auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    auto continuation = [&](size_t k) { return k < n && (byte(k) & 0xC0) == 0x80; };
    while (i < n) {
        unsigned char c = byte(i);
        if (c < 0x80) {
            ++i;
        } else if (c >= 0xC2 && c <= 0xDF) {
            if (!continuation(i + 1)) return i;
            i += 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            if (!continuation(i + 1) || !continuation(i + 2)) return i;
            unsigned char c1 = byte(i + 1);
            if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F)) return i;
            i += 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            if (!continuation(i + 1) || !continuation(i + 2) || !continuation(i + 3)) return i;
            unsigned char c1 = byte(i + 1);
            if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F)) return i;
            i += 4;
        } else {
            return i;
        }
    }
    return std::nullopt;
}

size_t next_code_point(std::string_view text, size_t offset) {
    auto lead = static_cast<unsigned char>(text[offset]);
    size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return std::min(offset + length, text.size());
}

}  // namespace mcl
