#include "support/InputFile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace mcl {

std::optional<std::string> read_input_file(const std::string& path, std::string& error) {
    auto refuse = [&](const std::string& why) -> std::optional<std::string> {
        error = fmt::format("cannot read '{}': {}", path, why);
        return std::nullopt;
    };
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return refuse("it is a directory");
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) return refuse(errno != 0 ? std::strerror(errno) : "it cannot be opened");
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        if (text.size() + static_cast<std::size_t>(in.gcount()) > kMaxInputFileBytes)
            return refuse(fmt::format("it is longer than {} MiB", kMaxInputFileBytes >> 20));
        text.append(chunk, static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) return refuse("a read failed");
    return text;
}

std::string canonical_path(const std::string& path) {
    std::error_code ec;
    std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : canonical.string();
}

}  // namespace mcl
