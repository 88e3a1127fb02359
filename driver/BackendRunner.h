// Runs a kernel through a generated backend on this machine, for `mclc run`
// and `mclc verify`: writes the backend's files for a module translated to a
// leaf, a harness program that reads the arguments of each run (the stream
// of KernelData.h), calls the generated host glue and writes every argument
// back, builds it with the host C++ compiler ($CXX, else c++; -Wall -Wextra
// -Werror, so generated code that warns fails), and runs it.
//
// Backends whose code runs here: cpp, hls (C simulation) and llvm (its
// object linked into the harness) natively, and
// opencl on any OpenCL device the glue finds (PoCL on this machine); its
// OpenCL build log must be clean. cuda (nvcc) and the llvm backend's PTX
// (the CUDA driver API) need a CUDA device, so they are not run here: a
// harness can instead be deferred, written with its inputs and a run.sh
// that builds and runs it where they run (`mclc verify --defer`), and its
// results read back later (`--deferred-results`).
//
// The runtime on StarPU runs here too: a harness generated from every
// version of a kernel (`mclc gen --runtime starpu`) submits the kernel as
// a task on each run's arrays (mcl::rt::Vector), waits, and writes them
// back, so that `verify --runtime starpu` compares the runtime's choice of
// version, its data movement and its codelets like a backend. A graph
// (.cnc) runs on the runtime the same way (GraphHarness), for `verify
// GRAPH.cnc`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "backends/Backend.h"
#include "cnc/InterpretGraph.h"
#include "driver/FrontendCommands.h"
#include "driver/KernelData.h"

namespace mcl::driver {

// The backends this machine can run, in the order verify tries them.
const std::vector<std::string>& runnable_backends();

// Whether `backend`'s harness can be deferred: the runnable backends, cuda
// and llvm (PTX at a GPU leaf).
bool can_defer(const std::string& backend);

// Whether `backend`'s code for a leaf configured as `config` runs here: the
// llvm backend's native objects do (CPU leaves), its PTX needs a CUDA
// device; the others' run wherever the backend is runnable.
bool runs_here(const std::string& backend, const backends::BackendConfig& config);

class BackendHarness {
public:
    // Generates `backend`'s code for `input` into `work_dir` with the harness
    // for `kernel`. Diagnostics of the generator go to `diags`.
    BackendHarness(const backends::GenerationInput& input, const backends::Backend& backend,
                   const mcpl::Function& kernel, const std::string& work_dir, DiagnosticEngine& diags);

    // Generates every version in `files` (of which `kernel`, checked, is
    // the first's) as tasks of the runtime on StarPU (`mclc gen --runtime
    // starpu`) into `work_dir`, with a harness that submits `kernel` on
    // each run's arrays and waits; its backend() is "starpu". StarPU's
    // variables (STARPU_NCPU, STARPU_NOPENCL) choose the workers of a run.
    // A program the runtime does not take leaves the first line of its
    // error in refusal().
    BackendHarness(const FrontendOptions& options, const std::vector<std::string>& files,
                   const mcpl::Function& kernel, const std::string& work_dir);

    const std::string& backend() const { return backend_; }
    const std::string& refusal() const { return refusal_; }
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }

    // Builds the harness; false with the compiler's output in error(). Only
    // files and a child process: harnesses of several versions may build
    // on several threads at once.
    bool build();
    bool built() const { return built_; }

    // Runs the built harness on each of `runs` (read and written back in
    // place); false with error() set when it fails, which a later run
    // clears. `opencl_build_options` go after
    // MCL_OPENCL_BUILD_OPTIONS to every OpenCL program build (-cl-opt-disable).
    // `environment_variables` (NAME=value ...) go to the harness's environment.
    bool run(std::vector<KernelData*> runs, const std::string& opencl_build_options = "",
             const std::string& environment_variables = "");

    // Leaves the harness to be built and run elsewhere: writes the inputs of
    // `runs` beside it and run.sh, which builds the harness where it is not
    // built yet (only that with BUILD_ONLY=1) and runs it on them, leaving
    // out<k>, run.log and status (the exit status, or "build" when the
    // build failed; build.log then says why); false with error() set when
    // the files cannot be written.
    bool defer(const std::vector<KernelData*>& runs);

private:
    std::string work_dir_;
    std::string backend_;
    std::string executable_;
    std::string build_command_;
    std::string error_;
    std::string refusal_;
    bool built_ = false;
};

// A graph (.cnc) on the runtime (`mclc gen --graph` with the further
// versions) and a harness that fills the graph's Environment with the
// items the environment puts (a file per item collection, every item of
// its targets one after another in range order), runs the graph and writes
// the items the environment gets the same way. StarPU's variables choose
// the workers of a run, as for the kernel harness above.
class GraphHarness {
public:
    GraphHarness(const FrontendOptions& options, const std::string& graph_file,
                 const std::vector<std::string>& versions, const cnc::Graph& graph, const cnc::CheckedGraph& checked,
                 const std::string& work_dir);

    const std::string& refusal() const { return refusal_; }
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    bool build();

    // Runs the graph on the environment's items in `puts`; `gets` receives
    // the items the environment gets. False with error() set on failure.
    bool run(const cnc::ItemValues& puts, cnc::ItemValues& gets, const std::string& environment_variables);

private:
    struct EnvironmentItems {
        const cnc::ItemCollection* item;
        std::string field;                // of the generated Environment
        std::vector<cnc::TagValue> tags;  // of every target of the collection, in order
    };
    std::string harness_source() const;

    long long elements(const cnc::ItemCollection& item) const { return item_elements_.at(item.name); }

    std::string work_dir_;
    std::map<std::string, long long> item_elements_;
    std::vector<EnvironmentItems> puts_, gets_;
    std::string build_command_;
    std::string error_;
    std::string refusal_;
    bool built_ = false;
};

// What verify reports the runtime's runs as, and the runs it makes here:
// once on CPU workers only, once on OpenCL workers only. `variables` go to
// the harness's environment (StarPU's, its files in `starpu_home`).
constexpr const char* kRuntimeEngine = "runtime on StarPU (every version)";
struct RuntimeWorkerRun {
    std::string name;  // "CPU workers"
    std::string variables;
};
std::vector<RuntimeWorkerRun> runtime_worker_runs(const std::string& starpu_home);

// A directory for generated code, removed when this goes out of scope.
class TemporaryDirectory {
public:
    TemporaryDirectory();
    ~TemporaryDirectory();
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
    std::string sub(const std::string& name) const;

private:
    std::string path_;
};

// The results a harness run wrote into `dir` (out<k>), read into `runs`,
// which hold the run's inputs; "" when all fit, else what went wrong.
std::string read_outputs(const std::string& dir, const std::string& backend, const std::vector<KernelData*>& runs);

// The results that a deferred harness's run.sh left in `dir` (see
// BackendHarness::defer), read into `runs`; "" when all are there, else
// why not: not run, not built, or the harness failed (with its log).
std::string read_deferred_results(const std::string& dir, const std::string& backend,
                                  const std::vector<KernelData*>& runs);

}  // namespace mcl::driver
