// `mclc feedback FILE [--hwd NAME] [--param k=v]... [--format text|json|sarif] [--all]`:
// checks a module, translates it to NAME first when given, and reports the
// performance remarks of every feedback pass for its functions: in text the
// bound first, then the ten remarks of highest impact with repeats folded
// and a count of the rest (RankRemarks.h), every remark with --all; JSON and
// SARIF always hold every remark with its impact.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "compiler/sema/Program.h"
#include "driver/FrontendCommands.h"
#include "feedback/Symbolic.h"

namespace mcl::driver {

struct FeedbackOptions {
    std::string level;                // --hwd: translate to this description first
    std::vector<std::string> params;  // "name=value"
    std::string format = "text";      // text, json or sarif
    bool all = false;                 // --all: every remark, unranked folding off
};

// "n=2048" -> {"n", 2048} into `params`; false for anything else.
bool parse_param(const std::string& text, feedback::Params& params);

// Whether every --param names an integer parameter of the program's
// functions (or one of `also_settable`) with a non-negative whole value;
// the usage error's text otherwise.
std::optional<std::string> check_params(const mcpl::Program& program, const feedback::Params& params,
                                        const std::vector<std::string>& also_settable = {});

int feedback_command(const FrontendOptions& frontend, const FeedbackOptions& options, const std::string& file,
                     std::ostream& out, std::ostream& err);

}  // namespace mcl::driver
