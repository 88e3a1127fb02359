// The `mclc` subcommands that execute kernels (DESIGN.md section 10):
// `run FILE` runs one kernel on seeded inputs with an engine (the llvm
// JIT where built, else the reference interpreter), or through a backend
// runnable here, and prints a checksum per
// output and the time; `verify FILE...` runs every given version of a kernel
// (the first file is the reference) with the interpreter at its own level,
// with the interpreter after translation to each leaf that has a target
// configuration, with the llvm engine at each of those levels, and through
// every backend runnable here, on the same
// inputs at several sizes, and names the first element, version and engine
// that differ.
//
// Exit status: 0 when everything agrees, 1 for errors in the input or a
// difference (the kernel or the compiler is wrong), 2 for bad usage.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "backends/Backend.h"
#include "driver/FrontendCommands.h"
#include "driver/KernelData.h"

namespace mcl::driver {

struct ExecutionOptions {
    std::string kernel;               // --kernel; default: the module's first kernel
    std::vector<std::string> params;  // --param name=value
    uint64_t seed = 1;
};

// The engines that execute a kernel without generating a backend's code:
// the reference interpreter, and the llvm engine (JIT) where mclc was built
// with LLVM. The first is the default of `mclc run`.
const std::vector<std::string>& available_engines();

struct RunOptions {
    ExecutionOptions execution;
    std::string engine;   // empty: the default (available_engines().front())
    std::string emit_llvm;  // with the llvm engine: write the optimized IR to this file
    std::string backend;  // empty: the interpreter
    std::string target;   // the leaf, with a backend
    backends::FloatingPointFreedom floating_point;  // llvm engine and backend only
};

int run_command(const FrontendOptions& options, const std::string& file, const RunOptions& run, std::ostream& out,
                std::ostream& err);

struct VerifyOptions {
    ExecutionOptions execution;
    std::vector<int64_t> sizes;           // bases of the size sets; default 1, 7, 33 and a tile's (TileSizes.h)
    int64_t max_size = 0;                 // > 0: the tile's size keeps every int parameter at most this
    std::vector<std::string> backends;    // default: every runnable one
    std::vector<std::string> targets;     // default: every leaf with a configuration
    std::vector<std::string> engines;     // besides the reference interpreter; default: every available one
    // "starpu": also every version together as tasks of the runtime, on
    // CPU workers only and on OpenCL workers only (BackendRunner.h).
    std::string runtime;
    Tolerance tolerance;
    // Harnesses of the chosen backends (default: those that cannot run
    // here) are written here with run.sh instead of being run (see
    // BackendHarness::defer), one folder a version, leaf and backend...
    std::string defer_dir;
    // ...and their results, run elsewhere, are read back from here and
    // compared; at most one of the two is set.
    std::string deferred_results_dir;
};

int verify_command(const FrontendOptions& options, const std::vector<std::string>& files,
                   const VerifyOptions& verify, std::ostream& out, std::ostream& err);

}  // namespace mcl::driver
