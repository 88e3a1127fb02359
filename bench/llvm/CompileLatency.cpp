// What `mclc run` pays before running a kernel with the llvm engine (its
// default): CompiledKernel::compile, i.e. lowering to LLVM IR, O3 and code
// generation (in code generation units on the pool's threads) and linking,
// for every kernel of every example under examples/
// (applications, refined versions, examples/runtime and examples/cnc steps)
// that loads standalone. Loading and checking are not part of it: each file
// is loaded and checked once, as `mclc run FILE` does (no translation: the
// kernel at its own level), before its benchmarks.
//
// A benchmark "llvm_compile/<file under examples/>/<kernel>" times compile()
// (the wall time of the call: the phases, the target machine, printing the
// optimized IR into a string that `--emit-llvm` writes) with manual timing;
// its counters give the phases that `mclc run` prints as `compile: X s`
// (lower_ms, optimize_ms, generate_ms, phases_ms, each the mean over the
// iterations). One compile of matmul.mcl runs first, untimed, so that LLVM's
// one-time initialization is not charged to the first example; `mclc run`
// pays it once per process (bench/run.sh measures that with `mclc run`).
// Files without a kernel (libraries) are skipped and listed on stderr.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backends/Backend.h"
#include "backends/llvm/LlvmEngine.h"
#include "driver/FrontendCommands.h"
#include "driver/Session.h"

namespace {

namespace fs = std::filesystem;
using mcl::backends::llvmir::CompiledKernel;

// A file loaded and checked in its own session, and its kernels.
struct Loaded {
    std::string name;  // relative to examples/
    std::unique_ptr<mcl::driver::Session> session;
    mcl::mcpl::Program program;
    std::vector<const mcl::mcpl::Function*> kernels;
};

std::unique_ptr<Loaded> load(const mcl::driver::FrontendOptions& options, const fs::path& file,
                             const fs::path& examples) {
    auto loaded = std::make_unique<Loaded>();
    loaded->name = fs::relative(file, examples).generic_string();
    loaded->session = std::make_unique<mcl::driver::Session>(options.hardware);
    loaded->program = mcl::driver::load_and_check(*loaded->session, options, {file.string()});
    if (loaded->session->diags.has_errors() || loaded->program.roots.empty()) {
        std::ostringstream err;
        loaded->session->report(err);
        std::fprintf(stderr, "%s: does not load standalone, skipped:\n%s", loaded->name.c_str(), err.str().c_str());
        return nullptr;
    }
    loaded->kernels = mcl::backends::module_kernels(*loaded->program.roots.front());
    if (loaded->kernels.empty()) {
        std::fprintf(stderr, "%s: no kernel, skipped\n", loaded->name.c_str());
        return nullptr;
    }
    return loaded;
}

// compile() once; its wall time in seconds, or a negative number after
// skipping the benchmark with the error.
double compile_once(benchmark::State& state, const Loaded& file, const mcl::mcpl::Function& kernel,
                    mcl::backends::llvmir::CompileTimes& times) {
    std::string error;
    auto start = std::chrono::steady_clock::now();
    auto compiled =
        CompiledKernel::compile(kernel, file.session->library, {}, file.session->diags, error);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!compiled) {
        std::ostringstream err;
        file.session->report(err);
        state.SkipWithError(("compile failed: " + error + " " + err.str()).c_str());
        return -1;
    }
    times = compiled->times();
    benchmark::DoNotOptimize(compiled.get());
    return wall;
}

void bench_compile(benchmark::State& state, const Loaded* file, const mcl::mcpl::Function* kernel) {
    double lower = 0, optimize = 0, generate = 0;
    int64_t n = 0;
    for (auto _ : state) {
        mcl::backends::llvmir::CompileTimes times;
        double wall = compile_once(state, *file, *kernel, times);
        if (wall < 0) return;
        state.SetIterationTime(wall);
        lower += times.lower, optimize += times.optimize, generate += times.generate;
        ++n;
    }
    if (n == 0) return;
    auto ms = [n](double seconds) { return benchmark::Counter(seconds * 1e3 / double(n)); };
    state.counters["lower_ms"] = ms(lower);
    state.counters["optimize_ms"] = ms(optimize);
    state.counters["generate_ms"] = ms(generate);
    state.counters["phases_ms"] = ms(lower + optimize + generate);
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    fs::path examples = MCL_EXAMPLES_DIR;
    mcl::driver::FrontendOptions options;
    options.hardware = mcl::driver::hardware_paths({});

    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(examples))
        if (entry.is_regular_file() && entry.path().extension() == ".mcl") files.push_back(entry.path());
    std::sort(files.begin(), files.end());

    std::vector<std::unique_ptr<Loaded>> loaded;
    for (const fs::path& file : files)
        if (auto l = load(options, file, examples)) loaded.push_back(std::move(l));

    // LLVM's one-time initialization (targets, the host CPU's description),
    // outside every benchmark.
    for (const auto& file : loaded) {
        if (file->name != "matmul/matmul.mcl") continue;
        std::string error;
        if (!CompiledKernel::compile(*file->kernels.front(), file->session->library, {}, file->session->diags, error))
            std::fprintf(stderr, "warm-up compile failed: %s\n", error.c_str());
    }

    for (const auto& file : loaded)
        for (const mcl::mcpl::Function* kernel : file->kernels)
            benchmark::RegisterBenchmark(("llvm_compile/" + file->name + "/" + kernel->name).c_str(), bench_compile,
                                         file.get(), kernel)
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
