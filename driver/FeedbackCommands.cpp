#include "driver/FeedbackCommands.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <ostream>

#include <fmt/format.h>

#include "compiler/translate/Translate.h"
#include "driver/FrontendCommands.h"
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

// The remarks of a graph (.cnc): per step the remarks of its kernel (its
// lines only, the graph's constants as example values), per edge of a
// relation the bytes its item moves per tag.
std::vector<feedback::Remark> graph_remarks(Session& session, const FrontendOptions& frontend, const std::string& file,
                                            feedback::Params params) {
    mcpl::Program program;
    std::optional<cnc::LoadedGraph> loaded;
    std::optional<cnc::CheckedGraph> checked = load_and_check_graph(session, frontend, file, program, loaded);
    if (!checked) return {};
    for (const cnc::Constant& c : loaded->graph.constants)
        params.emplace(c.name, c.is_float ? c.float_value : static_cast<double>(c.int_value));
    std::vector<feedback::Remark> remarks;
    for (const cnc::CheckedStep& step : checked->steps) {
        const mcpl::Module& module = *step.kernel->module;
        // The kernel's lines: from its name to the next function of its file.
        uint32_t end = UINT32_MAX;
        for (const auto& f : module.functions)
            if (f->location.line > step.kernel->location.line) end = std::min(end, f->location.line);
        for (feedback::Remark& r : feedback::run_feedback(program, module, session.library, params))
            if (r.location.file == step.kernel->location.file && r.location.line >= step.kernel->location.line &&
                r.location.line < end)
                remarks.push_back(std::move(r));
    }
    for (const cnc::Relation& r : loaded->graph.relations)
        for (const auto* list : {&r.gets, &r.puts})
            for (const cnc::ItemInstance& i : *list) {
                const cnc::ItemCollection* item = nullptr;
                for (const cnc::ItemCollection& c : loaded->graph.items)
                    if (c.name == i.name) item = &c;
                long long elements = checked->item_elements.at(i.name);
                int bytes = item->element == "double" ? 8 : item->element == "byte" || item->element == "bool" ? 1 : 4;
                feedback::Remark remark;
                remark.kind = feedback::RemarkKind::Transfers;
                remark.location = i.location;
                remark.message = fmt::format("step '{}' {} '{}' ({} x {}): {} bytes per tag", r.step.name,
                                             list == &r.gets ? "gets" : "puts", i.name, elements, item->element,
                                             elements * bytes);
                remarks.push_back(std::move(remark));
            }
    return remarks;
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
    std::vector<feedback::Remark> remarks;
    mcpl::Program program;
    if (is_graph_file(file)) {
        if (!options.level.empty()) {
            err << "mclc: error: --hwd is for a module; a graph's steps are at their kernels' levels\n";
            return kUsageError;
        }
        remarks = graph_remarks(session, frontend, file, params);
    } else {
        program = load_and_check(session, frontend, {file});
        bool ok = !session.diags.has_errors();
        if (ok && !options.level.empty())
            ok = translate::translate_program(program, options.level, session.library, session.diags);
        if (ok && !program.roots.empty())
            remarks = feedback::run_feedback(program, *program.roots.front(), session.library, params);
    }

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
