// The HTML report (`mclc report`, DESIGN.md section 14): one self-contained
// page for a set of kernel versions at one level of the hierarchy.
//
// Needs: what the driver collected per source file (its text, the remarks
//   at its lines, the level they are at) and per kernel version (its bound,
//   KernelBound from Bound.h, and the benchmark results matched to it), and
//   the roofs of the report's level (roofline_of).
// Does: writes one HTML page with inline CSS and inline SVG only (no
//   scripts, fonts, style sheets or images from anywhere; nothing the page
//   needs is outside it):
//   - the level and the rates its description gives, the --param values;
//   - a roofline plot (SVG id="roofline", log-log axes, decades as grid):
//     the level's compute roof and bandwidth slope, below it the roof of
//     computations in double precision (dashed, id="double-roof") when the
//     level describes their rate, and one labelled point
//     per version at the report's level whose bound has values: x = its
//     arithmetic intensity (computations per byte of compulsory traffic),
//     y = the operations per second it attains at its bound (operations /
//     time, on the roof). Without --param values or without both rates at
//     the level the page says so where the plot would be;
//   - per kernel (versions grouped by function name) a table of its
//     versions side by side: file, level, operations (and the part in
//     double precision), bytes, intensity,
//     compute and memory time, the bound and what limits it, and with
//     --bench the measured times matched to the version;
//   - per file its source lines (HTML-escaped) with the remarks at each line
//     in a box under it, and a note on the level the remarks are at.
// Benchmark matching (Google Benchmark JSON: {"benchmarks": [{"name",
//   "real_time", "time_unit"}]}, time_unit ns, us, ms or s, ns when absent;
//   aggregates are kept and shown by their names): a benchmark belongs to a
//   version when one of the '/'-separated components of its name is the
//   version's file stem ("matmul_gpu_v1"), or follows bench/'s naming
//   (bench/BenchSupport.h: "<app>/<device>/<variant>/<what>/<size>"): the
//   variant "mcl_" + the stem without the function name and '_' in front
//   ("mcl_gpu_v1" for matmul_gpu_v1.mcl), or "mcl_" + the version's own
//   level when the stem is the function name ("mcl_perfect" for
//   matmul.mcl). When none of those matches anything and the function has
//   only one version, a component equal to the function name matches. A
//   benchmark may match several versions only through the last rule.
//   The measured times are shown as they are: the page cannot know at which
//   sizes the benchmark ran, so comparing them with the bound assumes the
//   same sizes as --param.
// Guarantees: the same input gives the same page; all source text, remark
//   text, file and benchmark names are HTML-escaped.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/sema/Program.h"
#include "feedback/Bound.h"
#include "feedback/Remark.h"
#include "feedback/Symbolic.h"
#include "hdl/HardwareLibrary.h"

namespace mcl::feedback {

// One measured benchmark, its time in seconds.
struct BenchmarkResult {
    std::string name;
    double seconds = 0;
};

// Parses Google Benchmark JSON; an error message (with the line and column
// of a syntax error) instead when it is not.
std::variant<std::vector<BenchmarkResult>, std::string> parse_benchmark_json(const std::string& text);

struct ReportRemark {
    uint32_t line = 0;  // in the file
    uint32_t column = 0;
    Remark remark;
};

struct ReportFile {
    std::string path;
    std::string text;
    std::string level_note;  // e.g. "translated from perfect to hopper"
    std::vector<ReportRemark> remarks;
};

struct ReportVersion {
    std::string file;       // the path as given
    std::string stem;       // file name without directory and extension
    std::string function;
    std::string own_level;  // the level the version is written for
    KernelBound bound;      // at the level it was analysed at (bound.level)
    std::vector<BenchmarkResult> measured;
};

struct ReportInput {
    std::string level;
    Params params;
    LevelRates rates;                   // of the level
    std::optional<Roofline> roofline;   // of the level
    std::vector<ReportFile> files;
    std::vector<ReportVersion> versions;
    std::optional<std::string> bench_file;  // --bench, when given
};

// The benchmarks that belong to `version` (rules above); `single_version`:
// the version is the only one of its function.
std::vector<BenchmarkResult> match_benchmarks(const ReportVersion& version, bool single_version,
                                              const std::vector<BenchmarkResult>& benchmarks);

// The bound of one checked function, analysed as run_feedback analyses it.
// nullopt when the function has no description, a builtin body or a return
// value (it is not a kernel), or when collecting its accesses fails.
std::optional<KernelBound> bound_for(const mcpl::Program& program, const mcpl::Function& function,
                                     const hdl::HardwareLibrary& library, const Params& params);

std::string html_escape(const std::string& text);

std::string report_html(const ReportInput& input);

}  // namespace mcl::feedback
