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
// OpenCL build log must be clean. cuda needs a CUDA device and nvcc, so it is
// not run here.
#pragma once

#include <string>
#include <vector>

#include "backends/Backend.h"
#include "driver/KernelData.h"

namespace mcl::driver {

// The backends this machine can run, in the order verify tries them.
const std::vector<std::string>& runnable_backends();

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
    bool run(std::vector<KernelData*> runs, const std::string& opencl_build_options = "");

private:
    std::string harness_source(const mcpl::Module& module, const mcpl::Function& kernel) const;

    std::string work_dir_;
    std::string backend_;
    std::string executable_;
    std::string build_command_;
    std::string error_;
    bool built_ = false;
};

}  // namespace mcl::driver
