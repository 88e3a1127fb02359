// Input and output files: a bounded read, and a write whose failure is
// reported however late the system reports it, leaving no partial file.
#include <csignal>
#include <filesystem>
#include <functional>
#include <ostream>
#include <optional>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/InputFile.h"
#include "support/OutputFile.h"

namespace mcl {
namespace {

namespace fs = std::filesystem;

fs::path scratch_file(const std::string& name) {
    return fs::temp_directory_path() / ("mcl_files_test_" + std::to_string(::getpid()) + "_" + name);
}

TEST(OutputFile, WritesAndReadsBack) {
    fs::path path = scratch_file("written");
    std::string text(200000, 'x');
    std::string error;
    ASSERT_TRUE(write_output_file(path.string(), text, error)) << error;
    std::optional<std::string> read = read_input_file(path.string(), error);
    ASSERT_TRUE(read) << error;
    EXPECT_EQ(*read, text);
    fs::remove(path);
}

TEST(OutputFile, FullDeviceIsAnErrorWithTheReason) {
    // /dev/full accepts the open and buffered writes; only the flush fails.
    std::string error;
    EXPECT_FALSE(write_output_file("/dev/full", "short", error));
    EXPECT_EQ(error, "cannot write '/dev/full': No space left on device");
}

TEST(OutputFile, DirectoryAndMissingParentAreRefused) {
    std::string error;
    EXPECT_FALSE(write_output_file(fs::temp_directory_path().string(), "x", error));
    EXPECT_NE(error.find("it is a directory"), std::string::npos) << error;
    EXPECT_FALSE(write_output_file("/nonexistent-directory/out.txt", "x", error));
    EXPECT_EQ(error, "cannot write '/nonexistent-directory/out.txt': No such file or directory");
}

// Runs `write` under a file-size limit of 4096 bytes, which stands for a
// disk that fills during the write: past it, write() fails with EFBIG once
// SIGXFSZ is ignored.
bool write_under_size_limit(const std::function<bool()>& write) {
    struct rlimit before {};
    if (::getrlimit(RLIMIT_FSIZE, &before) != 0) ADD_FAILURE() << "getrlimit failed";
    struct rlimit limited = before;
    limited.rlim_cur = 4096;
    auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
    if (::setrlimit(RLIMIT_FSIZE, &limited) != 0) ADD_FAILURE() << "setrlimit failed";
    bool written = write();
    ::setrlimit(RLIMIT_FSIZE, &before);
    std::signal(SIGXFSZ, previous_handler);
    return written;
}

TEST(OutputFile, PartlyWrittenFileIsRemoved) {
    fs::path path = scratch_file("partial");
    std::string error;
    EXPECT_FALSE(write_under_size_limit([&] { return write_output_file(path.string(), std::string(100000, 'x'), error); }));
    EXPECT_EQ(error, "cannot write '" + path.string() + "': File too large");
    EXPECT_FALSE(fs::exists(path)) << "the partly written file is left";
}

TEST(OutputFile, StreamedWriteFailsWithTheReasonAndLeavesNoFile) {
    // Many small writes, as a verify harness's argument file is written: the
    // failure in the middle is reported, and the writes after it are harmless.
    auto lines = [](std::ostream& out) {
        for (int k = 0; k < 20000; ++k) out << k << '\n';
    };
    std::string error;
    EXPECT_FALSE(write_output_file("/dev/full", lines, error));
    EXPECT_EQ(error, "cannot write '/dev/full': No space left on device");

    fs::path path = scratch_file("streamed");
    EXPECT_FALSE(write_under_size_limit([&] { return write_output_file(path.string(), lines, error); }));
    EXPECT_EQ(error, "cannot write '" + path.string() + "': File too large");
    EXPECT_FALSE(fs::exists(path)) << "the partly written file is left";

    ASSERT_TRUE(write_output_file(path.string(), lines, error)) << error;
    std::optional<std::string> read = read_input_file(path.string(), error);
    ASSERT_TRUE(read) << error;
    EXPECT_EQ(read->substr(0, 6), "0\n1\n2\n");
    EXPECT_EQ(read->size(), 108890u);
    fs::remove(path);
}

TEST(InputFile, CanonicalPathNamesOneFileOnce) {
    fs::path dir = fs::temp_directory_path();
    std::string a = (dir / "x" / ".." / "same.mcl").string();
    std::string b = (dir / "." / "same.mcl").string();
    EXPECT_EQ(canonical_path(a), canonical_path(b));
    EXPECT_EQ(canonical_path(b), fs::weakly_canonical(dir / "same.mcl").string());
}

}  // namespace
}  // namespace mcl
