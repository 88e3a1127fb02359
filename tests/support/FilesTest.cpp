// Input and output files: a bounded read, and a write whose failure is
// reported however late the system reports it, leaving no partial file.
#include <csignal>
#include <filesystem>
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

TEST(OutputFile, PartlyWrittenFileIsRemoved) {
    // A file-size limit stands for a disk that fills during the write: past
    // it, write() fails with EFBIG once SIGXFSZ is ignored.
    fs::path path = scratch_file("partial");
    struct rlimit before {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &before), 0);
    struct rlimit limited = before;
    limited.rlim_cur = 4096;
    auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
    std::string error;
    bool written = write_output_file(path.string(), std::string(100000, 'x'), error);
    ::setrlimit(RLIMIT_FSIZE, &before);
    std::signal(SIGXFSZ, previous_handler);
    EXPECT_FALSE(written);
    EXPECT_EQ(error, "cannot write '" + path.string() + "': File too large");
    EXPECT_FALSE(fs::exists(path)) << "the partly written file is left";
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
