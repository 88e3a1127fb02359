#include "support/SourceManager.h"

#include <algorithm>

#include "support/InputFile.h"

namespace mcl {

uint32_t SourceManager::add_buffer(std::string path, std::string text) {
    File f{std::move(path), std::move(text), {0}};
    for (size_t i = 0; i < f.text.size(); ++i)
        if (f.text[i] == '\n') f.line_starts.push_back(i + 1);
    files_.push_back(std::move(f));
    return static_cast<uint32_t>(files_.size());
}

std::optional<uint32_t> SourceManager::load_file(const std::string& path, std::string& error) {
    std::optional<std::string> text = read_input_file(path, error);
    if (!text) return std::nullopt;
    return add_buffer(path, std::move(*text));
}

const std::string& SourceManager::path(uint32_t file) const {
    static const std::string none;
    return file >= 1 && file <= files_.size() ? files_[file - 1].path : none;
}

const std::string& SourceManager::text(uint32_t file) const {
    static const std::string none;
    return file >= 1 && file <= files_.size() ? files_[file - 1].text : none;
}

std::string_view SourceManager::line_text(uint32_t file, uint32_t line) const {
    if (file < 1 || file > files_.size()) return {};
    const File& f = files_[file - 1];
    if (line < 1 || line > f.line_starts.size()) return {};
    size_t begin = f.line_starts[line - 1];
    size_t end = line < f.line_starts.size() ? f.line_starts[line] - 1 : f.text.size();
    if (end > begin && f.text[end - 1] == '\r') --end;
    return std::string_view(f.text).substr(begin, end - begin);
}

SourceLocation SourceManager::location_of_offset(uint32_t file, size_t offset) const {
    if (file < 1 || file > files_.size()) return {};
    const File& f = files_[file - 1];
    auto next = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), offset);
    size_t line = static_cast<size_t>(next - f.line_starts.begin());
    return {file, static_cast<uint32_t>(line), static_cast<uint32_t>(offset - f.line_starts[line - 1] + 1)};
}

}  // namespace mcl
