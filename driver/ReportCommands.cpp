#include "driver/ReportCommands.h"

#include "driver/FeedbackCommands.h"

#include <charconv>
#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "compiler/translate/Translate.h"
#include "feedback/Report.h"
#include "feedback/RunFeedback.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"
#include "support/Spelling.h"

namespace mcl::driver {

namespace {

constexpr int kUsageError = 2;

// Loads, checks and (where a function is above the level) translates one
// file, and collects its remarks and versions into `report`; false after
// reporting errors (`usage_error` set when a --param does not fit the file).
bool add_file(const FrontendOptions& frontend, const std::string& file, const feedback::Params& params,
              feedback::ReportInput& report, std::ostream& err, bool& usage_error) {
    if (is_graph_file(file)) {
        err << fmt::format("mclc: error: '{}' is a Concurrent Collections graph; report takes MCPL files (the "
                           "graph's kernels)\n",
                           file);
        return false;
    }
    Session session(frontend.hardware);
    mcpl::Program program = load_and_check(session, frontend, {file});
    if (session.diags.has_errors() || program.roots.empty()) {
        session.report(err);
        return false;
    }
    if (std::optional<std::string> bad = check_params(program, params)) {
        err << "mclc: error: " << file << ": " << *bad << '\n';
        usage_error = true;
        return false;
    }
    const hdl::HardwareLibrary& library = session.library;
    const std::string& level = report.level;
    const mcpl::Module& module = *program.roots.front();
    std::string own_level, note;
    bool above = false, at_or_below = false;
    for (const auto& f : module.functions) {
        if (f->builtin_body) continue;
        if (own_level.empty()) own_level = f->hardware;
        if (f->hardware != level && library.is_ancestor(f->hardware, level)) above = true;
        else if (library.is_ancestor(level, f->hardware)) at_or_below = true;
    }
    if (above) {
        if (!translate::translate_program(program, level, library, session.diags)) {
            session.report(err);
            return false;
        }
        note = fmt::format("are at {}: the file is written for {} and was translated to {}", level, own_level, level);
    } else if (own_level == level) {
        note = fmt::format("are at {}, the level the file is written for", level);
    } else if (at_or_below) {
        note = fmt::format("are at {}, the level the file is written for (below {}: translation does not move a "
                           "kernel up)",
                           own_level, level);
    } else if (!own_level.empty()) {
        note = fmt::format("are at {}, the level the file is written for: {} is not below it, so the file cannot "
                           "be translated to it",
                           own_level, level);
    }
    if (session.diags.has_errors()) {
        session.report(err);
        return false;
    }
    session.report(err);  // notes and warnings, if any

    feedback::ReportFile out;
    out.path = file;
    out.text = session.sources.text(module.file);
    out.level_note = note;
    for (feedback::Remark& r : feedback::run_feedback(program, module, library, params)) {
        if (r.location.file != module.file) continue;  // imported modules' lines
        uint32_t line = r.location.line, column = r.location.column;
        out.remarks.push_back({line, column, std::move(r)});
    }
    report.files.push_back(std::move(out));

    std::string stem = std::filesystem::path(file).stem().string();
    bool exports = !module.exports.empty();
    for (const auto& f : module.functions) {
        if (f->builtin_body || (exports && !module.exports_name(f->name))) continue;
        std::optional<feedback::KernelBound> bound = feedback::bound_for(program, *f, library, params);
        if (!bound) continue;
        report.versions.push_back({file, stem, f->name, own_level, std::move(*bound), {}});
    }
    return true;
}

}  // namespace

int report_command(const FrontendOptions& frontend, const ReportOptions& options, std::ostream& out,
                   std::ostream& err) {
    feedback::ReportInput report;
    for (const std::string& p : options.params)
        if (!parse_param(p, report.params)) {
            err << fmt::format("mclc: error: --param expects NAME=NUMBER, not '{}'\n", p);
            return kUsageError;
        }
    if (options.files.empty() || options.output.empty()) {
        err << "mclc: error: report needs FILE... and -o OUT.html\n";
        return kUsageError;
    }
    report.level = options.level;
    {
        Session session(frontend.hardware);
        const hdl::HardwareModel* model = session.library.find(options.level);
        if (!model) {
            session.report(err);
            err << fmt::format("mclc: error: unknown hardware description '{}'{}\n", options.level,
                               did_you_mean(options.level, session.library.names()));
            return 1;
        }
        report.rates = feedback::rates_of(*model);
        report.roofline = feedback::roofline_of(model->name, report.rates);
    }

    std::vector<feedback::BenchmarkResult> benchmarks;
    if (!options.bench.empty()) {
        std::string error;
        std::optional<std::string> text = read_input_file(options.bench, error);
        if (!text) {
            err << fmt::format("mclc: error: the benchmark results: {}\n", error);
            return 1;
        }
        auto parsed = feedback::parse_benchmark_json(*text);
        if (auto* message = std::get_if<std::string>(&parsed)) {
            err << fmt::format("{}: error: {}\n", options.bench, *message);
            return 1;
        }
        benchmarks = std::get<std::vector<feedback::BenchmarkResult>>(parsed);
        report.bench_file = options.bench;
    }

    bool ok = true, usage_error = false;
    for (const std::string& file : options.files)
        ok = add_file(frontend, file, report.params, report, err, usage_error) && ok;
    if (usage_error) return kUsageError;
    if (!ok) return 1;

    for (feedback::ReportVersion& v : report.versions) {
        size_t versions = 0;
        for (const feedback::ReportVersion& w : report.versions) versions += w.function == v.function;
        if (report.bench_file) v.measured = feedback::match_benchmarks(v, versions == 1, benchmarks);
    }

    std::string html = feedback::report_html(report);
    std::string error;
    if (!write_output_file(options.output, html, error)) {
        err << fmt::format("mclc: error: {}\n", error);
        return 1;
    }
    out << fmt::format("wrote {} ({} files, {} versions at {})\n", options.output, report.files.size(),
                       report.versions.size(), report.level);
    return 0;
}

}  // namespace mcl::driver
