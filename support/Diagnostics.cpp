#include "support/Diagnostics.h"

#include <algorithm>
#include <ostream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/Utf8.h"

namespace mcl {

const char* severity_name(Severity s) {
    switch (s) {
    case Severity::Note: return "note";
    case Severity::Remark: return "remark";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    }
    return "error";
}

Diagnostic& DiagnosticEngine::report(Severity s, SourceLocation loc, std::string message) {
    if (!reported_.emplace(s, loc.file, loc.line, loc.column, message).second) {
        repeat_ = Diagnostic{s, loc, std::move(message), {}};
        return repeat_;
    }
    if (s == Severity::Error) ++errors_;
    diagnostics_.push_back(Diagnostic{s, loc, std::move(message), {}});
    return diagnostics_.back();
}

size_t DiagnosticEngine::error_count_in(uint32_t file) const {
    size_t n = 0;
    for (const Diagnostic& d : diagnostics_)
        if (d.severity == Severity::Error && d.location.file == file) ++n;
    return n;
}

void DiagnosticEngine::add_note(Diagnostic& d, SourceLocation loc, std::string message) {
    d.notes.push_back(Diagnostic{Severity::Note, loc, std::move(message), {}});
}

namespace {

// Lines are shown whole up to this many columns; a longer one (generated
// code, a file of one huge line) as this many columns around the caret, so
// that one diagnostic never prints megabytes.
constexpr size_t kShownColumns = 160;

// The byte offset of each column (code point) of `line` up to `columns`,
// and the offset where column `columns` + 1 would start.
std::vector<size_t> column_offsets(std::string_view line, size_t columns) {
    std::vector<size_t> offsets;
    size_t offset = 0;
    while (offset < line.size() && offsets.size() < columns) {
        offsets.push_back(offset);
        offset = next_code_point(line, offset);
    }
    offsets.push_back(offset);
    return offsets;
}

// The source line and a caret under 1-based column `column` (a code point).
void append_source_line(std::string& out, std::string_view line, uint32_t column) {
    size_t caret = column > 0 ? column - 1 : 0;
    size_t first = caret > kShownColumns / 2 ? caret - kShownColumns / 2 : 0;
    std::vector<size_t> offsets = column_offsets(line, first + kShownColumns);
    size_t last = offsets.size() - 1;  // columns shown: [first, last)
    first = std::min(first, last);
    bool cut_before = first > 0;
    bool cut_after = offsets.back() < line.size();
    out += cut_before ? "  ..." : "  ";
    out += line.substr(offsets[first], offsets.back() - offsets[first]);
    out += cut_after ? "...\n  " : "\n  ";
    if (cut_before) out += "   ";
    // Keep tabs so the caret lines up under the same column.
    for (size_t c = first; c < caret && c < last; ++c) out += line[offsets[c]] == '\t' ? '\t' : ' ';
    out += "^\n";
}

}  // namespace

void DiagnosticEngine::format_one(std::string& out, const Diagnostic& d) const {
    const SourceLocation& loc = d.location;
    if (loc.valid()) {
        out += sources_->path(loc.file);
        if (loc.line > 0) out += fmt::format(":{}:{}", loc.line, loc.column);
        out += ": ";
    } else {
        out += "mclc: ";
    }
    out += fmt::format("{}: {}\n", severity_name(d.severity), d.message);
    if (loc.valid() && loc.line > 0) {
        std::string_view line = sources_->line_text(loc.file, loc.line);
        if (!line.empty()) append_source_line(out, line, loc.column);
    }
    for (const Diagnostic& n : d.notes) format_one(out, n);
}

std::string DiagnosticEngine::format_text(const Diagnostic& d) const {
    std::string out;
    format_one(out, d);
    return out;
}

void DiagnosticEngine::print_text(std::ostream& out) const {
    for (const Diagnostic& d : diagnostics_) out << format_text(d);
    if (errors_ > 0) out << errors_ << (errors_ == 1 ? " error" : " errors") << " generated.\n";
}

nlohmann::json DiagnosticEngine::json_one(const Diagnostic& d) const {
    nlohmann::json j;
    j["severity"] = severity_name(d.severity);
    j["message"] = d.message;
    if (d.location.valid()) {
        j["file"] = sources_->path(d.location.file);
        j["line"] = d.location.line;
        j["column"] = d.location.column;
    }
    if (!d.notes.empty()) {
        j["notes"] = nlohmann::json::array();
        for (const Diagnostic& n : d.notes) j["notes"].push_back(json_one(n));
    }
    return j;
}

nlohmann::json DiagnosticEngine::to_json() const {
    nlohmann::json all = nlohmann::json::array();
    for (const Diagnostic& d : diagnostics_) all.push_back(json_one(d));
    return all;
}

}  // namespace mcl
