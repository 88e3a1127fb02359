#include "support/OutputFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace mcl {

bool write_output_file(const std::string& path, const std::string& text, std::string& error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = fmt::format("cannot write '{}': it is a directory", path);
        return false;
    }
    errno = 0;
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) {
        error = fmt::format("cannot write '{}': {}", path, errno != 0 ? std::strerror(errno) : "it cannot be opened");
        return false;
    }
    // The first failure's errno is the reason; a later step may overwrite it.
    bool failed = false;
    int reason = 0;
    auto step = [&](bool succeeded) {
        if (!succeeded && !failed) reason = errno;
        failed = failed || !succeeded;
    };
    step(std::fwrite(text.data(), 1, text.size(), file) == text.size());
    step(std::fflush(file) == 0);
    step(std::fclose(file) == 0);
    if (!failed) return true;
    error = fmt::format("cannot write '{}': {}", path, reason != 0 ? std::strerror(reason) : "a write failed");
    if (std::filesystem::is_regular_file(path, ec)) std::filesystem::remove(path, ec);
    return false;
}

}  // namespace mcl
