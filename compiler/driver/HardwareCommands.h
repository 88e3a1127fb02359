// The `mclc` subcommands about the hardware library: `list-hwd` prints the
// hierarchy as an indented tree; `show-hwd NAME` prints one resolved
// description as text or, with --json, its full model.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "hdl/HardwareLibrary.h"

namespace mcl::driver {

// Where descriptions are found: the built-in library and user directories.
struct HardwarePaths {
    std::string builtin_dir;
    std::vector<std::string> user_dirs;  // --hwd-path, then MCL_HWD_PATH
};

HardwarePaths hardware_paths(const std::vector<std::string>& hwd_path_options);

int list_hwd(const HardwarePaths& paths, std::ostream& out, std::ostream& err);
int show_hwd(const HardwarePaths& paths, const std::string& name, bool json, std::ostream& out,
             std::ostream& err);

}  // namespace mcl::driver
