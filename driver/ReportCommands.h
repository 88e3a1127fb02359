// `mclc report FILE... --hwd LEVEL [--param k=v]... [--bench RESULTS.json]
// -o OUT.html`: one self-contained HTML page (feedback/Report.h) for the
// given kernel versions at LEVEL.
//
// Each file is loaded and checked on its own (versions of one kernel often
// share module and function names). A file with a function above LEVEL is
// translated to LEVEL first, as `mclc feedback --hwd` does; functions
// already at LEVEL or below it stay where they are (translation cannot move
// a kernel up, and a version written for a leaf below LEVEL says more at its
// own level). A file none of whose functions is above or at LEVEL (another
// branch of the hierarchy, e.g. x86_avx2 in a hopper report) is analysed at
// its own level; the page says at which level each file's remarks are, and
// only versions analysed at LEVEL appear in the roofline plot.
// Exit status: 0 with the page written; 1 for an unknown LEVEL, a file that
// does not check or cannot be read, unreadable or malformed --bench JSON, or
// an output that cannot be written (nothing is written then); 2 for bad
// usage (--param not NAME=NUMBER).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "driver/FrontendCommands.h"

namespace mcl::driver {

struct ReportOptions {
    std::vector<std::string> files;
    std::string level;                // --hwd
    std::vector<std::string> params;  // "name=value"
    std::string bench;                // --bench, "" when not given
    std::string output;               // -o
};

int report_command(const FrontendOptions& frontend, const ReportOptions& options, std::ostream& out,
                   std::ostream& err);

}  // namespace mcl::driver
