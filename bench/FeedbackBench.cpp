// Times the whole feedback pipeline: for every example at every level at or
// below its own (check, translate, all feedback passes), the way
// `mclc feedback --hwd LEVEL` runs it. One benchmark iteration covers every
// (example, level) pair; the counter `per_kernel_ms` is the mean per pair.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/LoadModules.h"
#include "compiler/translate/Translate.h"
#include "feedback/RunFeedback.h"

namespace {

namespace fs = std::filesystem;

struct Kernel {
    std::string path, text;
};

std::vector<Kernel> examples() {
    std::vector<Kernel> out;
    for (const auto& e : fs::recursive_directory_iterator(MCL_EXAMPLES_DIR)) {
        std::string path = e.path().string();
        if (e.path().extension() != ".mcl" || path.find("/lib/") != std::string::npos) continue;
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        out.push_back({path, text.str()});
    }
    std::sort(out.begin(), out.end(), [](const Kernel& a, const Kernel& b) { return a.path < b.path; });
    return out;
}

// Feedback for one kernel at one level; returns the number of remarks.
size_t feedback(const mcl::hdl::HardwareLibrary& library, const Kernel& k, const std::string& level) {
    mcl::SourceManager sources;
    mcl::DiagnosticEngine diags(sources);
    mcl::mcpl::Program program =
        mcl::mcpl::load_modules_from_text(k.path, k.text, {MCL_EXAMPLES_DIR}, sources, library, diags);
    if (diags.has_errors() || !mcl::mcpl::check_program(program, library, diags)) return 0;
    if (!mcl::translate::translate_program(program, level, library, diags)) return 0;
    return mcl::feedback::run_feedback(program, *program.roots.front(), library, {}).size();
}

void BM_FeedbackEveryExampleEveryLevel(benchmark::State& state) {
    mcl::SourceManager sources;
    mcl::DiagnosticEngine diags(sources);
    mcl::hdl::HardwareLibrary library(sources, diags);
    library.load(MCL_STDLIB_HW_DIR, {});
    std::vector<Kernel> kernels = examples();
    std::vector<std::pair<const Kernel*, std::string>> pairs;
    for (const Kernel& k : kernels) {
        // The level of the kernel is the description named before its first function.
        for (const std::string& level : library.names()) {
            mcl::SourceManager s2;
            mcl::DiagnosticEngine d2(s2);
            auto program = mcl::mcpl::load_modules_from_text(k.path, k.text, {MCL_EXAMPLES_DIR}, s2, library, d2);
            if (program.roots.empty() || program.roots.front()->functions.empty()) continue;
            if (library.is_ancestor(program.roots.front()->functions.front()->hardware, level))
                pairs.emplace_back(&k, level);
        }
    }
    size_t remarks = 0;
    double seconds = 0;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        for (const auto& [k, level] : pairs) remarks += feedback(library, *k, level);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    benchmark::DoNotOptimize(remarks);
    state.counters["pairs"] = static_cast<double>(pairs.size());
    state.counters["per_kernel_ms"] =
        seconds * 1e3 / static_cast<double>(state.iterations()) / static_cast<double>(pairs.size());
}
BENCHMARK(BM_FeedbackEveryExampleEveryLevel)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
