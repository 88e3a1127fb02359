// Session: what one mclc command works with: the source files it read, the
// diagnostics engine they report to and the hardware library. Every
// subcommand makes one, so loading and reporting work the same everywhere.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::driver {

// Where descriptions are found: the built-in library and user directories.
struct HardwarePaths {
    std::string builtin_dir;
    std::vector<std::string> user_dirs;  // --hwd-path, then MCL_HWD_PATH
    // Commands that compile a program defer errors in user descriptions to
    // the program's use of them (HardwareLibrary.h).
    hdl::UserErrors user_errors = hdl::UserErrors::Report;
};

// The built-in directory (MCL_STDLIB_HW overrides it) and the user
// directories from --hwd-path options and MCL_HWD_PATH.
HardwarePaths hardware_paths(const std::vector<std::string>& hwd_path_options);

struct Session {
    SourceManager sources;
    DiagnosticEngine diags{sources};
    hdl::HardwareLibrary library;

    explicit Session(const HardwarePaths& paths) : library(sources, diags, paths.user_errors) {
        library.load(paths.builtin_dir, paths.user_dirs);
    }

    // Prints every diagnostic so far; the exit status for them (0 or 1).
    int report(std::ostream& err) const;

    // An error found after checking (an interpreter's), as the engine
    // prints it: "file:line:col: error: message" with the source line.
    std::string located_error(const SourceLocation& location, const std::string& message) const;
};

}  // namespace mcl::driver
