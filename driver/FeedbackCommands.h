// `mclc feedback FILE [--hwd NAME] [--param k=v]... [--format text|json|sarif]`:
// checks a module, translates it to NAME first when given, and reports the
// performance remarks of every feedback pass for its functions.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "driver/FrontendCommands.h"

namespace mcl::driver {

struct FeedbackOptions {
    std::string level;                // --hwd: translate to this description first
    std::vector<std::string> params;  // "name=value"
    std::string format = "text";      // text, json or sarif
};

int feedback_command(const FrontendOptions& frontend, const FeedbackOptions& options, const std::string& file,
                     std::ostream& out, std::ostream& err);

}  // namespace mcl::driver
