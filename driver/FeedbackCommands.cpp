#include "driver/FeedbackCommands.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "compiler/translate/Translate.h"
#include "driver/FrontendCommands.h"
#include "feedback/FeedbackOutput.h"
#include "feedback/RankRemarks.h"
#include "feedback/RunFeedback.h"

namespace mcl::driver {

namespace {

constexpr int kUsageError = 2;
// Remarks besides the bound in the default text output: a screenful.
constexpr size_t kShownRemarks = 10;

}  // namespace

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

namespace {

// The remarks of a graph (.cnc): per step the remarks of its kernel (its
// lines only, the graph's constants as example values), per edge of a
// relation the bytes its item moves per tag.
// nullopt after a usage error (a bad --param), printed on `err`.
std::optional<std::vector<feedback::Remark>> graph_remarks(Session& session, const FrontendOptions& frontend,
                                                           const std::string& file, feedback::Params params,
                                                           std::ostream& err) {
    mcpl::Program program;
    std::optional<cnc::LoadedGraph> loaded;
    std::optional<cnc::CheckedGraph> checked = load_and_check_graph(session, frontend, file, program, loaded);
    if (!checked) return std::vector<feedback::Remark>{};
    std::vector<std::string> constants;
    for (const cnc::Constant& c : loaded->graph.constants) constants.push_back(c.name);
    if (std::optional<std::string> bad = check_params(program, params, constants)) {
        err << "mclc: error: " << *bad << '\n';
        return std::nullopt;
    }
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

// The integer parameters of the module's functions (a graph's: of its
// steps' kernels, and its constants), which --param may give values.
std::map<std::string, bool> settable_names(const mcpl::Program& program) {
    std::map<std::string, bool> names;  // name -> is an integer
    for (const auto& module : program.modules)
        for (const auto& f : module->functions)
            for (const auto& p : f->params) {
                const mcpl::Type& t = p->forms.back().resolved_type;
                bool is_int = !t.is_array() && t.primitive == mcpl::Primitive::Int;
                names[p->name()] |= is_int;
            }
    return names;
}

}  // namespace

std::optional<std::string> check_params(const mcpl::Program& program, const feedback::Params& params,
                                        const std::vector<std::string>& also_settable) {
    std::map<std::string, bool> names = settable_names(program);
    for (const std::string& name : also_settable) names[name] = true;
    for (const auto& [name, value] : params) {
        auto it = names.find(name);
        if (it == names.end()) {
            std::string known;
            for (const auto& [n, is_int] : names)
                if (is_int) known += (known.empty() ? "" : ", ") + n;
            return fmt::format("--param {}: no parameter of that name{}", name,
                               known.empty() ? std::string(" (the kernel has no integer parameters)")
                                             : " (integer parameters: " + known + ")");
        }
        if (!it->second)
            return fmt::format("--param {}: '{}' is not an integer parameter; --param gives sizes for the "
                               "quantities",
                               name, name);
        if (value < 0 || value != std::floor(value))
            return fmt::format("--param {}={}: a size is a non-negative whole number", name, feedback::number_text(value));
    }
    return std::nullopt;
}

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
    std::optional<std::vector<feedback::Remark>> remarks;
    mcpl::Program program;
    if (is_graph_file(file)) {
        if (!options.level.empty()) {
            err << "mclc: error: --hwd is for a module; a graph's steps are at their kernels' levels\n";
            return kUsageError;
        }
        remarks = graph_remarks(session, frontend, file, params, err);
        if (!remarks) return kUsageError;
    } else {
        program = load_and_check(session, frontend, {file});
        bool ok = !session.diags.has_errors();
        if (ok)
            if (std::optional<std::string> bad = check_params(program, params)) {
                err << "mclc: error: " << *bad << '\n';
                return kUsageError;
            }
        if (ok && !options.level.empty())
            ok = translate::translate_program(program, options.level, session.library, session.diags);
        if (ok && !program.roots.empty())
            remarks = feedback::run_feedback(program, *program.roots.front(), session.library, params);
    }
    if (!remarks) remarks.emplace();

    if (options.format == "json") {
        int status = session.report(err);
        if (status == 0) out << feedback::remarks_to_json(*remarks, session.sources).dump(2) << '\n';
        return status;
    }
    if (options.format == "sarif") {
        out << feedback::remarks_to_sarif(*remarks, session.diags).dump(2) << '\n';
        return session.diags.has_errors() ? 1 : 0;
    }
    feedback::RankedRemarks ranked = feedback::rank_remarks(std::move(*remarks), options.all ? 0 : kShownRemarks);
    feedback::report_remarks(ranked.shown, session.diags);
    session.diags.print_text(out);
    if (ranked.not_shown > 0)
        out << fmt::format("mclc: {} more remark{} not shown; --all shows every remark\n", ranked.not_shown,
                           ranked.not_shown == 1 ? "" : "s");
    return session.diags.has_errors() ? 1 : 0;
}

}  // namespace mcl::driver
