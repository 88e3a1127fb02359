// InputFile: reads the whole of a file that a command takes as input (a
// module, a graph, a hardware description, a target configuration, a
// benchmark's results). Needs only the path. Guarantees a bounded read: a
// directory is refused before reading, and a file that has not ended after
// kMaxInputFileBytes (a device such as /dev/zero, a pipe that never closes)
// is refused once that many bytes are read, so that no input makes a
// command read without end or run out of memory. Pipes and /dev/stdin that
// end are read as files are (`mclc check <(generate)`). canonical_path
// says when two paths name one input file.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace mcl {

// Far beyond any source or description written by hand or generated.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{64} << 20;

// The text of the file at `path`, or std::nullopt with `error` set to a
// complete message: "cannot read 'PATH': WHY".
std::optional<std::string> read_input_file(const std::string& path, std::string& error);

// `path` made absolute with `.`, `..` and symbolic links resolved as far as
// the file system allows (the file need not exist); `path` itself where
// even that fails. Two paths to one file give one canonical path.
std::string canonical_path(const std::string& path);

}  // namespace mcl
