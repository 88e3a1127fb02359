// SourceManager: owns the text of every file the compiler reads and maps a
// SourceLocation (file id, line, column) back to a path and a source line.
// Everything that reports a location (parsers, checkers, feedback) refers to
// files through one SourceManager so diagnostics can print the line and a
// caret, and so that locations stay small values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcl {

struct SourceLocation {
    uint32_t file = 0;    // 0: no file (command line, internal)
    uint32_t line = 0;    // 1-based; 0: whole file
    uint32_t column = 0;  // 1-based

    bool valid() const { return file != 0; }
    friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

class SourceManager {
public:
    // Registers a file's text under a path; returns its id (>= 1).
    uint32_t add_buffer(std::string path, std::string text);
    // Reads a file from disk (read_input_file); std::nullopt, with `error`
    // the message saying why, when it cannot be read.
    std::optional<uint32_t> load_file(const std::string& path, std::string& error);

    const std::string& path(uint32_t file) const;
    const std::string& text(uint32_t file) const;
    // The text of a 1-based line without its line ending ("" when out of range).
    std::string_view line_text(uint32_t file, uint32_t line) const;
    // The location of a byte offset into a file's text.
    SourceLocation location_of_offset(uint32_t file, size_t offset) const;

private:
    struct File {
        std::string path;
        std::string text;
        std::vector<size_t> line_starts;
    };
    std::vector<File> files_;
};

}  // namespace mcl
