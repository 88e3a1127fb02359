#include "lsp/Positions.h"

#include <cctype>

namespace mcl::lsp {

namespace {

// The bytes of the UTF-8 sequence that starts with `lead` (1 for a stray
// continuation byte, so that malformed text still advances).
size_t sequence_length(unsigned char lead) {
    if (lead >= 0xF0) return 4;
    if (lead >= 0xE0) return 3;
    if (lead >= 0xC0) return 2;
    return 1;
}

// Four-byte sequences are the code points that UTF-16 writes as two units.
uint32_t utf16_units(size_t bytes) { return bytes == 4 ? 2 : 1; }

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string uri_to_path(const std::string& uri) {
    const std::string scheme = "file://";
    if (uri.compare(0, scheme.size(), scheme) != 0) return uri;
    size_t path_start = uri.find('/', scheme.size());  // skips an authority such as `localhost`
    if (path_start == std::string::npos) return uri;
    std::string path;
    for (size_t i = path_start; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && hex_value(uri[i + 1]) >= 0 && hex_value(uri[i + 2]) >= 0) {
            path.push_back(static_cast<char>(hex_value(uri[i + 1]) * 16 + hex_value(uri[i + 2])));
            i += 2;
        } else {
            path.push_back(uri[i]);
        }
    }
    return path;
}

std::string path_to_uri(const std::string& path) {
    static const char* digits = "0123456789ABCDEF";
    std::string uri = "file://";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
            uri.push_back(static_cast<char>(c));
        } else {
            uri.push_back('%');
            uri.push_back(digits[c >> 4]);
            uri.push_back(digits[c & 15]);
        }
    }
    return uri;
}

uint32_t utf16_character(std::string_view line, uint32_t column) {
    uint32_t character = 0;
    size_t i = 0;
    for (uint32_t c = 1; c < column && i < line.size(); ++c) {
        size_t bytes = sequence_length(static_cast<unsigned char>(line[i]));
        character += utf16_units(bytes);
        i += bytes;
    }
    return character;
}

uint32_t column_of_character(std::string_view line, uint64_t character) {
    uint32_t column = 1;
    uint64_t units = 0;
    for (size_t i = 0; i < line.size() && units < character; ++column) {
        size_t bytes = sequence_length(static_cast<unsigned char>(line[i]));
        units += utf16_units(bytes);
        i += bytes;
    }
    return column;
}

nlohmann::json position_json(const SourceManager& sources, SourceLocation loc) {
    uint32_t line = loc.line > 0 ? loc.line - 1 : 0;
    uint32_t column = loc.column > 0 ? loc.column : 1;
    return {{"line", line}, {"character", utf16_character(sources.line_text(loc.file, loc.line), column)}};
}

nlohmann::json range_json(const SourceManager& sources, SourceLocation loc, uint32_t length) {
    SourceLocation end = loc;
    end.column = (loc.column > 0 ? loc.column : 1) + length;
    return {{"start", position_json(sources, loc)}, {"end", position_json(sources, end)}};
}

uint32_t token_length(const SourceManager& sources, SourceLocation loc) {
    std::string_view line = sources.line_text(loc.file, loc.line);
    size_t start = 0;  // the byte offset of the column
    for (uint32_t c = 1; c < loc.column && start < line.size(); ++c)
        start += sequence_length(static_cast<unsigned char>(line[start]));
    if (start >= line.size()) return 0;
    if (!is_word_char(line[start])) return 1;
    size_t end = start;
    while (end < line.size() && is_word_char(line[end])) ++end;
    return static_cast<uint32_t>(end - start);
}

}  // namespace mcl::lsp
