#include "driver/RunCommands.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include <fmt/format.h>

#include "backends/Backend.h"
#include "backends/WriteCoverage.h"
#include "backends/cfamily/AsyncCopies.h"
#include "compiler/interpret/Interpreter.h"
#include "compiler/lower/Lower.h"
#include "compiler/translate/Translate.h"
#include "driver/BackendRunner.h"
#include "driver/RuntimeGen.h"
#include "driver/GenCommands.h"
#include "driver/TileSizes.h"
#include "support/OutputFile.h"
#include "support/Spelling.h"
#ifdef MCL_WITH_LLVM
#include "backends/llvm/LlvmEngine.h"
#endif

namespace mcl::driver {

namespace {

constexpr int kUsageError = 2;

// A module loaded and checked in a session of its own (translation changes
// it), with the kernel to run.
struct LoadedKernel {
    std::unique_ptr<Session> session;
    mcpl::Program program;
    const mcpl::Function* kernel = nullptr;
    // Which outputs the kernel writes in every element, found before
    // translation as `mclc gen` finds them: the glue does not copy those in.
    backends::WriteCoverage coverage;
};

// What a kernel is loaded for: the interpreter runs MCPL as written; the
// llvm engine and the backends run it lowered (compiler/lower/Lower.h),
// which means the same.
enum class RunBy { Interpreter, Engines };

// Loads `file`, translates it to `leaf` when one is given, lowers it for
// the engines when `run_by` says so, and finds the kernel named
// `kernel_name` (or the first kernel). Null, with the diagnostics printed
// to `err`, when that fails; `usage` is set when the kernel name is the
// problem.
std::unique_ptr<LoadedKernel> load_kernel(const FrontendOptions& options, const std::string& file,
                                          const std::string& kernel_name, const std::string& leaf, RunBy run_by,
                                          std::ostream& err, bool* usage = nullptr) {
    auto loaded = std::make_unique<LoadedKernel>();
    loaded->session = std::make_unique<Session>(options.hardware);
    Session& session = *loaded->session;
    loaded->program = load_and_check(session, options, {file});
    if (!session.diags.has_errors() && !loaded->program.roots.empty())
        loaded->coverage = backends::WriteCoverage::of(*loaded->program.roots.front());
    if (!session.diags.has_errors() && !leaf.empty())
        translate::translate_program(loaded->program, leaf, session.library, session.diags);
    if (!session.diags.has_errors() && run_by == RunBy::Engines)
        lower::lower_for_engines(loaded->program, session.library, session.diags);
    if (session.diags.has_errors() || loaded->program.roots.empty()) {
        session.report(err);
        return nullptr;
    }
    std::vector<const mcpl::Function*> kernels =
        backends::module_kernels(*loaded->program.roots.front(), session.diags);
    std::vector<std::string> names;
    for (const mcpl::Function* k : kernels) {
        names.push_back(k->name);
        if (!loaded->kernel && (kernel_name.empty() || k->name == kernel_name)) loaded->kernel = k;
    }
    if (kernels.empty()) {
        session.report(err);
        return nullptr;
    }
    if (!loaded->kernel) {
        session.report(err);
        err << fmt::format("mclc: error: '{}' has no kernel '{}'{}\n", file, kernel_name,
                           did_you_mean(kernel_name, names));
        if (usage) *usage = true;
        return nullptr;
    }
    session.report(err);  // warnings
    return loaded;
}

// --param NAME=VALUE for scalar parameters of `kernel`.
bool parse_params(const mcpl::Function& kernel, const std::vector<std::string>& params,
                  std::map<std::string, double>& values, std::ostream& err) {
    std::vector<std::string> scalars, integral;
    for (const auto& p : kernel.params) {
        const mcpl::Type& t = p->forms.front().resolved_type;
        if (t.is_array() || t.record) continue;
        scalars.push_back(p->forms.front().name);
        if (t.primitive != mcpl::Primitive::Float && t.primitive != mcpl::Primitive::Double)
            integral.push_back(p->forms.front().name);
    }
    for (const std::string& param : params) {
        size_t eq = param.find('=');
        std::string name = param.substr(0, eq);
        if (eq == std::string::npos || std::find(scalars.begin(), scalars.end(), name) == scalars.end()) {
            err << (eq == std::string::npos
                        ? fmt::format("mclc: error: --param '{}' is not NAME=VALUE\n", param)
                        : fmt::format("mclc: error: '{}' is not a scalar parameter of kernel '{}'{}\n", name,
                                      kernel.name, did_you_mean(name, scalars)));
            return false;
        }
        char* end = nullptr;
        std::string text = param.substr(eq + 1);
        double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0') {
            err << fmt::format("mclc: error: --param {}: '{}' is not a number\n", name, text);
            return false;
        }
        bool is_integral = std::find(integral.begin(), integral.end(), name) != integral.end();
        if (is_integral && (v != std::floor(v) || v < -2147483648.0 || v > 2147483647.0)) {
            err << fmt::format("mclc: error: --param {}: '{}' is not an int\n", name, text);
            return false;
        }
        values[name] = v;
    }
    return true;
}

// The int scalar parameters not given with --param: parameter j gets `base`,
// or base + 2j (distinct odd sizes catch mixed-up extents) when base > 1.
Sizes sizes_for(const mcpl::Function& kernel, const std::map<std::string, double>& values, int64_t base) {
    Sizes sizes;
    int64_t j = 0;
    for (const auto& p : kernel.params) {
        const mcpl::Type& t = p->forms.front().resolved_type;
        const std::string& name = p->forms.front().name;
        if (t.is_array() || t.primitive != mcpl::Primitive::Int) continue;
        auto given = values.find(name);
        sizes.emplace_back(name, given != values.end() ? static_cast<int64_t>(given->second)
                                 : base > 1                ? base + 2 * j
                                                           : base);
        ++j;
    }
    return sizes;
}

std::string located(const Session& session, const interpret::InterpretError& e) {
    return session.located_error(e.location, e.message);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The leaves with a configuration, and the configuration file of each.
std::map<std::string, std::string> configured_leaves(const FrontendOptions& options) {
    return backends::find_target_configs(config_dirs(options.hardware));
}

// Why the llvm engine did not run a kernel: empty text when it did.
struct EngineProblem {
    std::string text;      // the located error
    bool refused = false;  // the kernel uses a construct the engine does not run
};

// Runs `kernel` with the llvm engine on each of `runs`, with the
// floating-point freedoms `freedom`. `compile_note` gets the times of
// lowering, O3 and code generation; `ir_file` the IR.
EngineProblem run_llvm_engine(Session& session, const mcpl::Function& kernel, std::vector<KernelData*> runs,
                              const backends::FloatingPointFreedom& freedom = {}, std::string* compile_note = nullptr,
                              const std::string& ir_file = "") {
#ifdef MCL_WITH_LLVM
    std::string error;
    size_t diagnostics_before = session.diags.diagnostics().size();
    backends::llvmir::EngineOptions options;
    options.keep_ir = !ir_file.empty();
    options.floating_point = freedom;
    auto compiled = backends::llvmir::CompiledKernel::compile(kernel, session.library, options, session.diags, error);
    if (!compiled) {
        const auto& all = session.diags.diagnostics();
        if (all.size() > diagnostics_before) return {session.diags.format_text(all[diagnostics_before]), true};
        return {"mclc: error: llvm engine: " + error + "\n"};
    }
    if (compile_note) {
        const backends::llvmir::CompileTimes& t = compiled->times();
        *compile_note = fmt::format("compile: {:.3f} s (lower {:.3f}, optimize {:.3f}, generate {:.3f})\n", t.total(),
                                    t.lower, t.optimize, t.generate);
    }
    if (!ir_file.empty() && !write_output_file(ir_file, compiled->optimized_ir(), error))
        return {fmt::format("mclc: error: {}\n", error)};
    for (KernelData* data : runs)
        if (auto fault = compiled->run(data->storages)) return {located(session, *fault)};
    return {};
#else
    (void)session, (void)kernel, (void)runs, (void)freedom, (void)compile_note, (void)ir_file;
    return {"mclc: error: this mclc was built without LLVM\n", true};
#endif
}

}  // namespace

const std::vector<std::string>& available_engines() {
#ifdef MCL_WITH_LLVM
    static const std::vector<std::string> engines{"llvm", "interp"};
#else
    static const std::vector<std::string> engines{"interp"};
#endif
    return engines;
}

int run_command(const FrontendOptions& options, const std::string& file, const RunOptions& run, std::ostream& out,
                std::ostream& err) {
    if (run.backend.empty() != run.target.empty()) {
        err << "mclc: error: --backend and --target go together\n";
        return kUsageError;
    }
    const std::vector<std::string>& engines = available_engines();
    std::string engine_name = run.engine.empty() ? engines.front() : run.engine;
    if (std::find(engines.begin(), engines.end(), engine_name) == engines.end()) {
        err << fmt::format("mclc: error: no engine '{}' (available: {})\n", engine_name, fmt::join(engines, ", "));
        return kUsageError;
    }
    if (!run.engine.empty() && !run.backend.empty()) {
        err << "mclc: error: --engine and --backend exclude each other\n";
        return kUsageError;
    }
    if (run.floating_point.any() &&
        (run.backend.empty() ? engine_name != "llvm" : run.backend != "llvm")) {
        err << "mclc: error: --fp-contract and --fast-math apply to the llvm engine and the llvm backend only\n";
        return kUsageError;
    }
    bool usage = false;
    const RunBy run_by = run.backend.empty() && engine_name == "interp" ? RunBy::Interpreter : RunBy::Engines;
    auto loaded = load_kernel(options, file, run.execution.kernel, run.target, run_by, err, &usage);
    if (!loaded) return usage ? kUsageError : 1;
    const mcpl::Function& kernel = *loaded->kernel;
    std::map<std::string, double> values;
    if (!parse_params(kernel, run.execution.params, values, err)) return kUsageError;
    KernelData data;
    Sizes sizes = sizes_for(kernel, values, 33);
    if (auto error = make_kernel_data(kernel, sizes, values, run.execution.seed, data)) {
        err << located(*loaded->session, *error);
        return 1;
    }
    auto start = std::chrono::steady_clock::now();
    std::string engine = "interpreter";
    std::string compile_note;
    bool interpret = run.backend.empty() && engine_name == "interp";
    if (run.backend.empty() && engine_name == "llvm") {
        start = std::chrono::steady_clock::now();
        KernelData original = data.clone();
        EngineProblem problem = run_llvm_engine(*loaded->session, kernel, {&data}, run.floating_point, &compile_note, run.emit_llvm);
        if (problem.refused && run.engine.empty()) {
            // the default engine cannot run this kernel: the interpreter can
            err << "mclc: note: the llvm engine does not run this kernel, the interpreter does: "
                << problem.text.substr(0, problem.text.find('\n')) << '\n';
            data = std::move(original);
            interpret = true;
        } else if (!problem.text.empty()) {
            err << problem.text;
            return 1;
        } else {
            engine = "llvm engine";
        }
    }
    if (interpret) {
        interpret::InterpretOptions io;
        io.seed = run.execution.seed;
        if (auto error = interpret::run_kernel(loaded->session->library, kernel, data.storages, io)) {
            err << located(*loaded->session, *error);
            return 1;
        }
    } else if (!run.backend.empty()) {
        Session& session = *loaded->session;
        const backends::Backend* backend = backends::find_backend(run.backend);
        auto configs = configured_leaves(options);
        auto found = configs.find(run.target);
        if (!backend || found == configs.end()) {
            err << fmt::format("mclc: error: no backend '{}' for target '{}' (see mclc list-targets)\n", run.backend,
                               run.target);
            return kUsageError;
        }
        std::optional<backends::TargetConfig> config = load_config(session, run.target, found->second);
        if (!config) return session.report(err);
        if (config->backend(run.backend) && !runs_here(run.backend, *config->backend(run.backend))) {
            err << fmt::format("mclc: error: the {} backend's code for '{}' cannot run on this machine\n", run.backend,
                               run.target);
            return kUsageError;
        }
        TemporaryDirectory work;
        backends::GenerationInput input{loaded->program, *loaded->program.roots.front(),
                                        *session.library.find(run.target), *config, loaded->coverage, "", &session.library,
                                        run.floating_point};
        BackendHarness harness(input, *backend, kernel, work.sub("run"), session.diags);
        if (session.diags.has_errors()) return session.report(err);
        start = std::chrono::steady_clock::now();
        if (!harness.build() || !harness.run({&data})) {
            err << "mclc: error: " << harness.error() << '\n';
            return 1;
        }
        engine = fmt::format("{} at {}", run.backend, run.target);
    }
    double elapsed = seconds_since(start);
    if (auto poisoned = first_poisoned_output(data)) {
        err << fmt::format("mclc: error: {} was computed from memory that nothing wrote\n", *poisoned);
        return 1;
    }
    out << fmt::format("{} ({}, {}, seed {})\n", kernel.name, engine, describe_sizes(sizes), run.execution.seed)
        << output_checksums(data) << compile_note << fmt::format("time: {:.3f} s\n", elapsed);
    return 0;
}

namespace {

// One version of the kernel checked against the reference results.
class Verifier {
public:
    Verifier(const FrontendOptions& options, const VerifyOptions& verify, std::ostream& out, std::ostream& err)
        : options_(options), verify_(verify), out_(out), err_(err) {}

    int run(const std::vector<std::string>& files) {
        bool usage = false;
        std::shared_ptr<LoadedKernel> reference =
            load_kernel(options_, files.front(), verify_.execution.kernel, "", RunBy::Interpreter, err_, &usage);
        if (!reference) return usage ? kUsageError : 1;
        kernel_name_ = reference->kernel->name;
        files_ = files;
        loaded_[{files.front(), "", RunBy::Interpreter}] = {reference, ""};
        if (!parse_params(*reference->kernel, verify_.execution.params, values_, err_)) return kUsageError;
        std::vector<int64_t> bases = verify_.sizes.empty() ? std::vector<int64_t>{1, 7, 33} : verify_.sizes;
        for (size_t r = 0; r < bases.size(); ++r) {
            sizes_.push_back(sizes_for(*reference->kernel, values_, bases[r]));
            KernelData data;
            if (auto error = make_kernel_data(*reference->kernel, sizes_.back(), values_, verify_.execution.seed + r,
                                              data)) {
                err_ << located(*reference->session, *error);
                return 1;
            }
            inputs_.push_back(std::move(data));
        }
        if (!reference_results(*reference, files)) return 1;
        std::shared_ptr<LoadedKernel> reference_kernel = reference;  // verify_version lets loaded_ go
        for (const std::string& file : files) verify_version(file, file != files.front());
        if (!verify_.runtime.empty()) verify_runtime(*reference_kernel->kernel, files);
        out_ << fmt::format("{} ok, {} failed, {} skipped{}\n", passed_, failed_, skipped_,
                            deferred_ ? fmt::format(", {} deferred", deferred_) : "");
        return failed_ > 0 ? 1 : 0;
    }

private:
    // The interpreter's results for the first file: the reference. The run
    // in reverse order must agree (else the result depends on the order of
    // units: a race), and no output may come from unwritten memory.
    bool reference_results(LoadedKernel& reference, const std::vector<std::string>& files) {
        const std::string& file = files.front();
        const std::string level = reference.kernel->hardware;
        std::vector<int64_t> steps;
        for (size_t r = 0; r < inputs_.size(); ++r) {
            steps.push_back(0);
            if (auto problem = reference_result(reference, file, r, steps.back())) {
                err_ << *problem;
                return false;
            }
        }
        if (verify_.sizes.empty()) add_tile_size(reference, files, steps);
        report(file, fmt::format("interpreter at {} (the reference)", level), "");
        interpret::InterpretOptions reverse;
        reverse.order = interpret::UnitOrder::Reverse;
        check_interpreter(reference, file, fmt::format("interpreter at {}, units in reverse order", level), reverse);
        if (auto lowered = load_for_engines(file, "", level)) check_engines(*lowered, file, level);
        return true;
    }

    // The configured leaves (name, configuration path) where verify runs a
    // version of `level`: `level` itself where it is a leaf, and the leaves
    // below it, as --targets allows.
    std::map<std::string, std::string> verified_leaves(const std::string& level,
                                                       const hdl::HardwareLibrary& library) const {
        std::map<std::string, std::string> leaves;
        for (const auto& [leaf, config_path] : configured_leaves(options_)) {
            bool targeted = verify_.targets.empty() ||
                            std::find(verify_.targets.begin(), verify_.targets.end(), leaf) != verify_.targets.end();
            if (targeted && (leaf == level || library.is_ancestor(level, leaf))) leaves.emplace(leaf, config_path);
        }
        return leaves;
    }

    // Run `r` of the reference into references_, counting its `steps`; the
    // problem, located, where it fails.
    std::optional<std::string> reference_result(LoadedKernel& reference, const std::string& file, size_t r,
                                                int64_t& steps) {
        KernelData want = inputs_[r].clone();
        interpret::InterpretOptions io;
        io.seed = verify_.execution.seed + r;
        io.steps_run = &steps;
        if (auto error = interpret::run_kernel(reference.session->library, *reference.kernel, want.storages, io))
            return located(*reference.session, *error) +
                   fmt::format("mclc: error: the reference ({}, interpreter at {}) fails at {}\n", file,
                               reference.kernel->hardware, describe_sizes(sizes_[r]));
        if (auto poisoned = first_poisoned_output(want))
            return fmt::format("mclc: error: {} ({}) was computed from memory that nothing wrote, at {}\n", *poisoned,
                               file, describe_sizes(sizes_[r]));
        references_.push_back(std::move(want));
        return std::nullopt;
    }

    // The default sizes run no full tile of a kernel tiled by more than 32
    // (TileSizes.h), in a version as written or translated to a leaf: this
    // adds the size that runs one full tile and part of the next, for the
    // largest tile within --max-size whose reference run, extrapolated from
    // its steps at the default sizes 7 and 33, stays within
    // kTileStepBudget (every version and leaf runs the interpreter again,
    // translated code slower). Notes say what was added, which larger tile
    // was left out, and where the reference itself fails at the added size
    // (a kernel may be meant for smaller sizes): then it is not run.
    void add_tile_size(LoadedKernel& reference, const std::vector<std::string>& files,
                       const std::vector<int64_t>& steps) {
        static constexpr double kTileStepBudget = 1e7;  // about 2 s here: 5 million steps a second
        std::set<int64_t, std::greater<>> tiles;
        Session probe(options_.hardware);
        for (const std::string& file : files) {
            LoadedKernel* version = load(file, "", RunBy::Interpreter).version.get();
            if (!version) continue;
            for (int64_t t : tile_sizes(*version->kernel)) tiles.insert(t);
            for (const auto& [leaf, config_path] : verified_leaves(version->kernel->hardware, probe.library)) {
                if (LoadedKernel* translated = load(file, leaf, RunBy::Interpreter).version.get())
                    for (int64_t t : tile_sizes(*translated->kernel)) tiles.insert(t);
            }
        }
        double growth = steps[1] > 0 && steps[2] > steps[1]
                            ? std::log(static_cast<double>(steps[2]) / steps[1]) / std::log(33.0 / 7.0)
                            : 1.0;
        growth = std::clamp(growth, 1.0, 4.0);
        auto predicted_steps = [&](int64_t tile) {
            return static_cast<double>(steps[2]) * std::pow(static_cast<double>(tile + 1) / 33.0, growth);
        };
        auto within_max_size = [&](const Sizes& sizes) {
            return verify_.max_size <= 0 ||
                   std::all_of(sizes.begin(), sizes.end(), [&](const auto& s) { return s.second <= verify_.max_size; });
        };
        std::optional<int64_t> left_out;
        for (int64_t tile : tiles) {
            if (tile <= 32) break;
            Sizes sizes = sizes_for(*reference.kernel, values_, tile + 1);
            if (!within_max_size(sizes)) continue;
            if (predicted_steps(tile) > kTileStepBudget) {
                if (!left_out) left_out = tile;
                continue;
            }
            if (std::find(sizes_.begin(), sizes_.end(), sizes) != sizes_.end()) break;  // --param gave them all
            std::string added = describe_sizes(sizes);
            KernelData data;
            std::optional<std::string> problem;
            if (auto error = make_kernel_data(*reference.kernel, sizes, values_, verify_.execution.seed + inputs_.size(),
                                              data)) {
                problem = located(*reference.session, *error);
            } else {
                sizes_.push_back(std::move(sizes));
                inputs_.push_back(std::move(data));
                int64_t ignored_steps = 0;
                problem = reference_result(reference, files.front(), inputs_.size() - 1, ignored_steps);
                if (problem) {
                    sizes_.pop_back();
                    inputs_.pop_back();
                }
            }
            if (problem)
                out_ << fmt::format("note: not also at {} (a full tile of {}): the reference fails there: {}\n", added,
                                    tile, problem->substr(0, problem->find('\n')));
            else
                out_ << fmt::format("note: also at {}: a full tile of {} and part of the next\n", added, tile);
            break;
        }
        if (left_out)
            out_ << fmt::format("note: no size runs a full tile of {} (about {:.1e} steps of the interpreter); "
                                "--sizes {} runs one\n",
                                *left_out, predicted_steps(*left_out), *left_out + 1);
    }

    void report(const std::string& file, const std::string& engine, const std::string& problem,
                bool skipped = false) {
        // A refusal marked internal error is a bug of the compiler, not a
        // construct an engine leaves out: a failure.
        if (skipped && problem.find("internal error") != std::string::npos) skipped = false;
        const char* verdict = skipped ? "skip" : problem.empty() ? "ok" : "FAIL";
        out_ << fmt::format("{:<5} {}: {}{}\n", verdict, file, engine, problem.empty() ? "" : fmt::format(": {}", problem));
        (skipped ? skipped_ : problem.empty() ? passed_ : failed_)++;
    }

    // Compares the results of one engine for run `r`; "" when they agree.
    std::string difference(const KernelData& got, size_t r) {
        if (auto m = compare_outputs(got, references_[r], verify_.tolerance))
            return fmt::format("at {}: {} = {}, the reference gives {}", describe_sizes(sizes_[r]), m->where, m->got,
                               m->want);
        return "";
    }

    // The first difference of `runs` (one per input) from the reference; ""
    // when all agree.
    std::string first_difference(const std::vector<KernelData>& runs) {
        for (size_t r = 0; r < runs.size(); ++r)
            if (std::string d = difference(runs[r], r); !d.empty()) return d;
        return "";
    }

    // Fresh copies of the inputs, for one engine's or harness's runs.
    std::vector<KernelData> input_copies() const {
        std::vector<KernelData> runs;
        for (const KernelData& in : inputs_) runs.push_back(in.clone());
        return runs;
    }

    // The runs as the engines and harnesses take them.
    static std::vector<KernelData*> pointers_to(std::vector<KernelData>& runs) {
        std::vector<KernelData*> pointers;
        for (KernelData& d : runs) pointers.push_back(&d);
        return pointers;
    }

    // A version must take the reference's parameters, to run on its data.
    bool same_parameters(const mcpl::Function& kernel, const std::string& file, const std::string& engine) {
        const auto& want = inputs_.front().layouts;
        bool same = kernel.params.size() == want.size();
        for (size_t k = 0; same && k < want.size(); ++k)
            same = kernel.params[k]->forms.front().resolved_type.str() ==
                   want[k].decl->forms.front().resolved_type.str();
        if (!same) report(file, engine, fmt::format("kernel '{}' does not take the reference's parameters", kernel.name));
        return same;
    }

    void check_interpreter(LoadedKernel& version, const std::string& file, const std::string& engine,
                           interpret::InterpretOptions io) {
        if (!same_parameters(*version.kernel, file, engine)) return;
        // The outputs that host glue would not copy to a device start
        // unwritten here, so that an element the kernel leaves alone shows.
        std::set<size_t> not_copied_in;
        for (size_t p = 0; p < version.kernel->params.size(); ++p)
            if (version.coverage.fully_written(*version.kernel, p) && !version.kernel->params[p]->is_read)
                not_copied_in.insert(p);
        for (size_t r = 0; r < inputs_.size(); ++r) {
            KernelData got = inputs_[r].clone();
            for (size_t p : not_copied_in)
                for (interpret::Scalar& cell : got.storages[p]->cells) cell.poison = true;
            io.seed = verify_.execution.seed + 1000 + r;
            if (auto error = interpret::run_kernel(version.session->library, *version.kernel, got.storages, io)) {
                report(file, engine, located(*version.session, *error));
                return;
            }
            if (auto unwritten = first_poisoned_output(got)) {
                report(file, engine,
                       fmt::format("at {}: {} is left unwritten, though the write-coverage analysis finds every "
                                   "element of it written (generated host glue would not copy it to the device)",
                                   describe_sizes(sizes_[r]), *unwritten));
                return;
            }
            if (std::string d = difference(got, r); !d.empty()) {
                report(file, engine, d);
                return;
            }
        }
        report(file, engine, "");
    }

    // The engines other than the interpreter (the llvm JIT) on the version
    // as loaded (at its own level or translated to a leaf).
    void check_engines(LoadedKernel& version, const std::string& file, const std::string& level) {
        const std::vector<std::string>& wanted = verify_.engines.empty() ? available_engines() : verify_.engines;
        if (std::find(wanted.begin(), wanted.end(), "llvm") == wanted.end()) return;
        std::string engine = fmt::format("llvm engine at {}", level);
        if (!same_parameters(*version.kernel, file, engine)) return;
        std::vector<KernelData> runs = input_copies();
        if (EngineProblem problem = run_llvm_engine(*version.session, *version.kernel, pointers_to(runs));
            !problem.text.empty()) {
            std::string first = problem.text.substr(0, problem.text.find('\n'));
            if (problem.refused) report(file, engine, "refused: " + first, true);
            else report(file, engine, first);
            return;
        }
        report(file, engine, first_difference(runs));
    }

    // The interpreter with the stores that a backend makes as asynchronous
    // copies landing only where its code waits for them, in reverse unit
    // order: a wait the backend leaves out changes a result here, also
    // where no device can run that backend's code. Backends that copy and
    // wait alike share one run.
    void check_asynchronous_copies(LoadedKernel& version, const std::string& file, const std::string& leaf,
                                   const backends::TargetConfig& config) {
        Session& session = *version.session;
        std::vector<std::pair<interpret::DeferredStores, std::vector<std::string>>> runs;
        for (const std::string& b : config.backend_names()) {
            const backends::Backend* backend = backends::find_backend(b);
            if (!backend) continue;
            backends::GenerationInput input{version.program, *version.program.roots.front(),
                                            *session.library.find(leaf), config, version.coverage, "",
                                            &session.library};
            DiagnosticEngine ignored(session.sources);  // generating the backend's code reports them
            backends::AsyncCopyPlan plan = backend->asynchronous_copies(input, *version.kernel, ignored);
            if (plan.copies.empty()) continue;
            interpret::DeferredStores deferred{backends::copied_assignments(plan), plan.waits_before, plan.waits_after};
            auto same = std::find_if(runs.begin(), runs.end(), [&](const auto& run) {
                return run.first.stores == deferred.stores && run.first.land_before == deferred.land_before &&
                       run.first.land_after == deferred.land_after;
            });
            if (same != runs.end()) same->second.push_back(b);
            else runs.push_back({std::move(deferred), {b}});
        }
        for (auto& [deferred, backends] : runs) {
            interpret::InterpretOptions io;
            io.order = interpret::UnitOrder::Reverse;
            io.deferred = std::move(deferred);
            check_interpreter(version, file,
                              fmt::format("interpreter at {}, asynchronous copies of {}", leaf, fmt::join(backends, ", ")),
                              io);
        }
    }

    // `refusal` on one line of the report: its first line, which locates
    // it, and the messages of its notes (why a kernel call was not inlined,
    // say), which the first line does not give.
    static std::string refusal_line(const DiagnosticEngine& diags, const Diagnostic& refusal) {
        std::string text = diags.format_text(refusal);
        std::string line = text.substr(0, text.find('\n'));
        for (const Diagnostic& note : refusal.notes) line += fmt::format(" (note: {})", note.message);
        return line;
    }

    // Where a backend's harness runs: here, or elsewhere (written now for
    // later, or read back from an earlier run).
    enum class HarnessRun { Here, Defer, ReadDeferred };

    // A backend run of one version at one leaf: generated and set up on this
    // thread, built and run on a worker, compared here again.
    struct BackendJob {
        std::string engine;
        HarnessRun where = HarnessRun::Here;
        std::string deferred_dir;  // the harness's folder under --defer or --deferred-results
        std::shared_ptr<LoadedKernel> version;  // what the harness was generated from
        std::unique_ptr<TemporaryDirectory> work;
        std::unique_ptr<BackendHarness> harness;
        std::vector<KernelData> runs;
        std::string refusal;  // set when the backend refused the kernel
    };

    // The folder of `file`'s harness for `backend` at `leaf` under `root`:
    // "<file's position>-<its stem>.<leaf>.<backend>", one per job.
    std::string deferred_dir(const std::string& root, const std::string& file, const std::string& leaf,
                             const std::string& backend) const {
        size_t position = std::find(files_.begin(), files_.end(), file) - files_.begin();
        return (std::filesystem::path(root) /
                fmt::format("{}-{}.{}.{}", position, std::filesystem::path(file).stem().string(), leaf, backend))
            .string();
    }

    // The backends of a leaf share one loaded version: generating reads it
    // only, and each reports to a diagnostics engine of its own, so that one
    // backend's refusal (or the llvm engine's) is not another's.
    BackendJob prepare_backend(std::shared_ptr<LoadedKernel> version, const std::string& file, const std::string& leaf,
                               const backends::TargetConfig& config, const backends::Backend& backend,
                               HarnessRun where) {
        BackendJob job;
        job.engine = fmt::format("{} at {}", backend.name(), leaf);
        job.where = where;
        Session& session = *version->session;
        DiagnosticEngine generation(session.sources);
        backends::GenerationInput input{version->program, *version->program.roots.front(),
                                        *session.library.find(leaf), config, version->coverage, "",
                                        &session.library};
        job.work = std::make_unique<TemporaryDirectory>();
        std::string harness_dir = job.work->sub("harness");
        if (where == HarnessRun::Defer) {
            harness_dir = job.deferred_dir = deferred_dir(verify_.defer_dir, file, leaf, backend.name());
            std::error_code ec;
            std::filesystem::remove_all(harness_dir, ec);
        } else if (where == HarnessRun::ReadDeferred) {
            job.deferred_dir = deferred_dir(verify_.deferred_results_dir, file, leaf, backend.name());
            job.engine += " (run elsewhere)";
        }
        job.harness = std::make_unique<BackendHarness>(input, backend, *version->kernel, harness_dir, generation);
        if (generation.has_errors())
            job.refusal = refusal_line(generation, generation.diagnostics().front());
        job.runs = input_copies();
        job.version = std::move(version);
        return job;
    }

    static void build_and_run(BackendJob& job) {
        if (!job.refusal.empty() || job.where == HarnessRun::ReadDeferred) return;
        if (job.where == HarnessRun::Defer) job.harness->defer(pointers_to(job.runs));
        else if (job.harness->build()) job.harness->run(pointers_to(job.runs));
    }

    void finish_backend(BackendJob& job, const std::string& file) {
        if (!job.refusal.empty()) {
            report(file, job.engine, fmt::format("refused: {}", job.refusal), true);
            return;
        }
        if (job.where == HarnessRun::Defer) {
            if (!job.harness->ok()) report(file, job.engine, job.harness->error());
            else report_deferred(file, job.engine, job.deferred_dir);
            return;
        }
        std::string problem = job_problem(job);
        if (!problem.empty() && agrees_unoptimized(job))
            problem += " (it agrees when the OpenCL implementation builds it without optimizing, -cl-opt-disable: "
                       "a difference of the implementation's optimizer, or undefined behaviour in the generated code "
                       "that it exploits; tests/difftest/opencl_optimizer_bugs has such cases)";
        report(file, job.engine, problem);
    }

    // The first difference of a built and run job from the reference; "" when
    // it agrees.
    std::string job_problem(BackendJob& job) {
        if (!job.harness->ok()) return job.harness->error();
        if (job.where == HarnessRun::ReadDeferred) {
            if (std::string problem =
                    read_deferred_results(job.deferred_dir, job.harness->backend(), pointers_to(job.runs));
                !problem.empty())
                return problem;
        }
        return first_difference(job.runs);
    }

    // Whether an opencl job that failed agrees with the reference when the
    // OpenCL implementation does not optimize (PoCL has miscompiled right
    // kernels, and crashed on some): run again, built with -cl-opt-disable.
    bool agrees_unoptimized(BackendJob& job) {
        const char* options = std::getenv("MCL_OPENCL_BUILD_OPTIONS");
        bool unoptimized_already = options && std::string(options).find("-cl-opt-disable") != std::string::npos;
        if (!job.harness->built() || unoptimized_already ||
            job.engine.rfind("opencl at ", 0) != 0)
            return false;
        job.runs = input_copies();
        return job.harness->run(pointers_to(job.runs), "-cl-opt-disable") && job_problem(job).empty();
    }

    // Builds and runs the jobs on as many workers as this machine has cores
    // (the compiler dominates), then reports them in order.
    void run_backend_jobs(std::vector<BackendJob>& jobs, const std::string& file) {
        size_t workers = std::max(1u, std::thread::hardware_concurrency());
        std::atomic<size_t> next{0};
        std::vector<std::thread> pool;
        for (size_t w = 0; w < std::min(workers, jobs.size()); ++w)
            pool.emplace_back([&] {
                for (size_t k = next++; k < jobs.size(); k = next++) build_and_run(jobs[k]);
            });
        for (std::thread& t : pool) t.join();
        for (BackendJob& job : jobs) finish_backend(job, file);
    }

    // A version of the kernel as loaded by load_kernel(), with what loading
    // it printed.
    struct LoadedVersion {
        std::shared_ptr<LoadedKernel> version;  // null when it does not load
        std::string diagnostics;
    };

    // `file`'s version translated to `leaf` when one is given, for
    // `run_by`: loaded once and kept, since the tile sizes, the
    // interpreter, the engines and every backend of a leaf look at the same
    // version (translation dominates verify's own time).
    const LoadedVersion& load(const std::string& file, const std::string& leaf, RunBy run_by) {
        auto [at, added] = loaded_.try_emplace({file, leaf, run_by});
        if (added) {
            std::ostringstream diagnostics;
            at->second.version = load_kernel(options_, file, kernel_name_, leaf, run_by, diagnostics);
            at->second.diagnostics = diagnostics.str();
        }
        return at->second;
    }

    // load(), with the first error of a version that does not load
    // reported as the refusal of `what`.
    std::shared_ptr<LoadedKernel> load_or_refuse(const std::string& file, const std::string& leaf, RunBy run_by,
                                                 const std::string& what) {
        const LoadedVersion& loaded = load(file, leaf, run_by);
        if (!loaded.version) {
            const std::string& text = loaded.diagnostics;
            report(file, what, fmt::format("refused: {}", text.substr(0, text.find('\n'))), true);
        }
        return loaded.version;
    }

    // The version as the engines run it (lowered), translated to `leaf`
    // when one is given.
    std::shared_ptr<LoadedKernel> load_for_engines(const std::string& file, const std::string& leaf,
                                                   const std::string& level) {
        return load_or_refuse(file, leaf, RunBy::Engines, fmt::format("engines and backends at {}", level));
    }

    // Where `backend`'s harness runs for a leaf configured as `config`;
    // nothing when verify leaves it out. Without --backends: every backend
    // that runs here, and with --defer or --deferred-results every other
    // one elsewhere; with it, those named, elsewhere when deferring.
    std::optional<HarnessRun> harness_run(const std::string& backend, const backends::BackendConfig& config) const {
        bool runnable = runs_here(backend, config);
        bool named = std::find(verify_.backends.begin(), verify_.backends.end(), backend) != verify_.backends.end();
        HarnessRun elsewhere = verify_.defer_dir.empty() ? HarnessRun::ReadDeferred : HarnessRun::Defer;
        bool deferring = !verify_.defer_dir.empty() || !verify_.deferred_results_dir.empty();
        if (verify_.backends.empty()) {
            if (runnable) return HarnessRun::Here;
            if (deferring && can_defer(backend)) return elsewhere;
            return std::nullopt;
        }
        if (!named) return std::nullopt;
        if (deferring) return elsewhere;
        if (runnable) return HarnessRun::Here;
        return std::nullopt;
    }

    void report_deferred(const std::string& file, const std::string& engine, const std::string& dir) {
        out_ << fmt::format("{:<5} {}: {}: written to {} (run its run.sh where it runs, then verify with "
                            "--deferred-results)\n",
                            "defer", file, engine, dir);
        ++deferred_;
    }

    void verify_version(const std::string& file, bool own_level) {
        const LoadedVersion& as_written = load(file, "", RunBy::Interpreter);
        if (!as_written.version) {
            if (own_level) report(file, "interpreter", fmt::format("does not load: {}", as_written.diagnostics));
            return;
        }
        const std::string level = as_written.version->kernel->hardware;
        if (own_level) {
            check_interpreter(*as_written.version, file, fmt::format("interpreter at {}", level), {});
            if (auto lowered = load_for_engines(file, "", level)) check_engines(*lowered, file, level);
        }
        Session probe(options_.hardware);
        std::vector<BackendJob> jobs;
        for (const auto& [leaf, config_path] : verified_leaves(level, probe.library)) {
            // A version written for a leaf is that leaf's translation: checked above.
            bool checked_at_own_level = own_level && leaf == level;
            if (!checked_at_own_level) {
                auto version = load_or_refuse(file, leaf, RunBy::Interpreter, fmt::format("translation to {}", leaf));
                if (!version) continue;
                check_interpreter(*version, file, fmt::format("interpreter at {}", leaf), {});
            }
            auto version = load_for_engines(file, leaf, leaf);
            if (!version) continue;
            if (!checked_at_own_level) check_engines(*version, file, leaf);
            std::optional<backends::TargetConfig> config = load_config(*version->session, leaf, config_path);
            if (config) check_asynchronous_copies(*version, file, leaf, *config);
            if (!config) {
                // A broken configuration is the user's error, not a leaf to skip quietly.
                std::ostringstream text;
                version->session->report(text);
                std::string errors = text.str();
                size_t at = errors.find("error:");
                size_t start = at == std::string::npos ? 0 : errors.rfind('\n', at) + 1;
                report(file, fmt::format("target configuration of {}", leaf),
                       errors.substr(start == std::string::npos ? 0 : start, errors.find('\n', start) - start));
                continue;
            }
            for (const std::string& b : config->backend_names()) {
                const backends::Backend* backend = backends::find_backend(b);
                std::optional<HarnessRun> where = harness_run(b, *config->backend(b));
                if (!backend || !where) continue;
                if (same_parameters(*version->kernel, file, fmt::format("{} at {}", b, leaf)))
                    jobs.push_back(prepare_backend(version, file, leaf, *config, *backend, *where));
            }
        }
        run_backend_jobs(jobs, file);
        std::erase_if(loaded_, [&](const auto& entry) { return std::get<0>(entry.first) == file; });
    }

    // Every version together as the runtime's tasks, run once with CPU
    // workers only and once with OpenCL workers only, so that each kind
    // runs the version the runtime picks for its devices. A kind with no
    // version of the kernel is skipped.
    void verify_runtime(const mcpl::Function& kernel, const std::vector<std::string>& files) {
        TemporaryDirectory work;
        BackendHarness harness(options_, files, kernel, work.sub("harness"));
        if (!harness.refusal().empty()) {
            report(files.front(), kRuntimeEngine, fmt::format("refused: {}", harness.refusal()), true);
            return;
        }
        if (!harness.build()) {
            report(files.front(), kRuntimeEngine, harness.error());
            return;
        }
        for (const RuntimeWorkerRun& workers : runtime_worker_runs(work.sub(""))) {
            std::vector<KernelData> runs = input_copies();
            std::string what = fmt::format("{}, {}", kRuntimeEngine, workers.name);
            if (!harness.run(pointers_to(runs), "", workers.variables)) {
                const std::string& error = harness.error();
                bool no_version = error.find("no worker can run this call") != std::string::npos;
                report(files.front(), what, no_version ? "no version of the kernel for these workers' devices" : error,
                       no_version);
                continue;
            }
            report(files.front(), what, first_difference(runs));
        }
    }

    const FrontendOptions& options_;
    const VerifyOptions& verify_;
    std::ostream& out_;
    std::ostream& err_;
    std::string kernel_name_;
    std::vector<std::string> files_;
    std::map<std::string, double> values_;  // of the scalars given by --param
    std::vector<Sizes> sizes_;
    std::vector<KernelData> inputs_;
    std::vector<KernelData> references_;
    std::map<std::tuple<std::string, std::string, RunBy>, LoadedVersion> loaded_;  // by file, leaf, run_by
    int passed_ = 0, failed_ = 0, skipped_ = 0, deferred_ = 0;
};

}  // namespace

int verify_command(const FrontendOptions& options, const std::vector<std::string>& files,
                   const VerifyOptions& verify, std::ostream& out, std::ostream& err) {
    for (const std::string& e : verify.engines)
        if (std::find(available_engines().begin(), available_engines().end(), e) == available_engines().end()) {
            err << fmt::format("mclc: error: no engine '{}' (available: {})\n", e, fmt::join(available_engines(), ", "));
            return kUsageError;
        }
    bool deferring = !verify.defer_dir.empty() || !verify.deferred_results_dir.empty();
    for (const std::string& b : verify.backends) {
        if (deferring && !can_defer(b)) {
            err << fmt::format("mclc: error: backend '{}' cannot be deferred (cuda, llvm and those runnable here: {})\n",
                               b, fmt::join(runnable_backends(), ", "));
            return kUsageError;
        }
        if (!deferring && std::find(runnable_backends().begin(), runnable_backends().end(), b) == runnable_backends().end()) {
            err << fmt::format("mclc: error: backend '{}' cannot run here (runnable: {}; --defer DIR writes it "
                               "to run elsewhere)\n",
                               b, fmt::join(runnable_backends(), ", "));
            return kUsageError;
        }
    }
    if (!verify.runtime.empty() && !unknown_runtime(verify.runtime).empty()) {
        err << fmt::format("mclc: error: {}\n", unknown_runtime(verify.runtime));
        return kUsageError;
    }
    if (!verify.deferred_results_dir.empty() && !std::filesystem::is_directory(verify.deferred_results_dir)) {
        err << fmt::format("mclc: error: --deferred-results {}: no such directory\n", verify.deferred_results_dir);
        return kUsageError;
    }
    return Verifier(options, verify, out, err).run(files);
}

}  // namespace mcl::driver
