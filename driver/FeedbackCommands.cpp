#include "driver/FeedbackCommands.h"

#include <charconv>
#include <ostream>

#include <fmt/format.h>

#include "compiler/translate/Translate.h"
#include "feedback/FeedbackOutput.h"
#include "feedback/RunFeedback.h"

namespace mcl::driver {

namespace {

constexpr int kUsageError = 2;

// "n=2048" -> {"n", 2048}; false for anything else.
bool parse_param(const std::string& text, feedback::Params& params) {
    size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) return false;
    std::string value = text.substr(eq + 1);
    double v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size()) return false;
    params[text.substr(0, eq)] = v;
    return true;
}

}  // namespace

int feedback_command(const FrontendOptions& frontend, const FeedbackOptions& options, const std::string& file,
                     std::ostream& out, std::ostream& err) {
    feedback::Params params;
    for (const std::string& p : options.params)
        if (!parse_param(p, params)) {
            err << fmt::format("mclc: error: --param expects NAME=NUMBER, not '{}'\n", p);
            return kUsageError;
        }
    if (options.format != "text" && options.format != "json" && options.format != "sarif") {
        err << fmt::format("mclc: error: --format is text, json or sarif, not '{}'\n", options.format);
        return kUsageError;
    }
    Session session(frontend.hardware);
    mcpl::Program program = load_and_check(session, frontend, {file});
    bool ok = !session.diags.has_errors();
    if (ok && !options.level.empty())
        ok = translate::translate_program(program, options.level, session.library, session.diags);
    std::vector<feedback::Remark> remarks;
    if (ok && !program.roots.empty())
        remarks = feedback::run_feedback(program, *program.roots.front(), session.library, params);

    if (options.format == "json") {
        int status = session.report(err);
        if (status == 0) out << feedback::remarks_to_json(remarks, session.sources).dump(2) << '\n';
        return status;
    }
    if (options.format == "sarif") {
        out << feedback::remarks_to_sarif(remarks, session.diags).dump(2) << '\n';
        return session.diags.has_errors() ? 1 : 0;
    }
    feedback::report_remarks(remarks, session.diags);
    session.diags.print_text(out);
    return session.diags.has_errors() ? 1 : 0;
}

}  // namespace mcl::driver
