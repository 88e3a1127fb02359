#include "support/OutputFile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace mcl {

bool write_output_file(const std::string& path, const std::function<void(std::ostream&)>& write,
                       std::string& error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = fmt::format("cannot write '{}': it is a directory", path);
        return false;
    }
    errno = 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out.is_open()) {
        error = fmt::format("cannot write '{}': {}", path, errno != 0 ? std::strerror(errno) : "it cannot be opened");
        return false;
    }
    // The first failure's errno is the reason; a later step may overwrite it.
    // A failed stream writes nothing more, so the failing system call is the
    // last to set errno before each check.
    int reason = 0;
    bool failed = false;
    auto step = [&](bool succeeded) {
        if (!succeeded && !failed) reason = errno;
        failed = failed || !succeeded;
    };
    write(out);
    step(static_cast<bool>(out));
    if (!failed) step(static_cast<bool>(out.flush()));
    out.close();
    step(!out.fail());
    if (!failed) return true;
    error = fmt::format("cannot write '{}': {}", path, reason != 0 ? std::strerror(reason) : "a write failed");
    if (std::filesystem::is_regular_file(path, ec)) std::filesystem::remove(path, ec);
    return false;
}

bool write_output_file(const std::string& path, const std::string& text, std::string& error) {
    return write_output_file(
        path, [&](std::ostream& out) { out.write(text.data(), static_cast<std::streamsize>(text.size())); }, error);
}

}  // namespace mcl
