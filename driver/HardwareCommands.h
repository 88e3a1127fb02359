// The `mclc` subcommands about the hardware library: `list-hwd` prints the
// hierarchy as an indented tree; `show-hwd NAME` prints one resolved
// description as text or, with --json, its full model.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "driver/Session.h"

namespace mcl::driver {

int list_hwd(const HardwarePaths& paths, std::ostream& out, std::ostream& err);
int show_hwd(const HardwarePaths& paths, const std::string& name, bool json, std::ostream& out,
             std::ostream& err);

}  // namespace mcl::driver
