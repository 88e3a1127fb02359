// OutputFile: writes the whole of a file that a command produces (printed
// MCPL, generated sources and host glue, an HTML report, optimized IR, the
// argument files of a verify harness).
// Needs the path and the text, or a function that writes it to a stream
// (for data too large to copy into one string first). Guarantees that a
// write that did not complete is reported, with the reason, however late
// the system reports it: the data is flushed and the file closed before
// success is claimed, so a full disk (or /dev/full) is an error rather than
// a truncated file and exit status 0. A regular file left partly written is
// removed, so that a build does not take it for output.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace mcl {

// Writes what `write` puts on the stream to `path` (created or truncated);
// false with `error` set to a complete message, "cannot write 'PATH': WHY",
// when any step fails.
bool write_output_file(const std::string& path, const std::function<void(std::ostream&)>& write,
                       std::string& error);

// Writes `text` to `path`, as above.
bool write_output_file(const std::string& path, const std::string& text, std::string& error);

}  // namespace mcl
