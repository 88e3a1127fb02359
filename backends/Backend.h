// The interface every code generator implements (DESIGN.md section 7), and
// the registry that finds one by name.
//
// A backend reads a checked module that has been translated to a leaf of the
// hierarchy, the leaf's hardware model and the leaf's target configuration
// (TargetConfig.h: how the backend spells par_groups, memory spaces and
// builtin functions; nothing about that is hard-coded in a backend). It
// returns the files to write, by name relative to the output directory: the
// kernel source, the host glue (`<module>.h` and its source) and any runtime
// header the glue includes.
//
// Adding a backend: a folder `backends/<name>/` with a class derived from
// Backend, its sources in backends/CMakeLists.txt, and one line in
// BackendList.cpp that registers it. No other backend changes.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backends/TargetConfig.h"
#include "backends/WriteCoverage.h"
#include "compiler/ast/ConstantValue.h"
#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "hdl/HardwareModel.h"
#include "support/Diagnostics.h"

namespace mcl::backends {

struct AsyncCopyPlan;  // cfamily/AsyncCopies.h

struct GeneratedFile {
    std::string name;  // relative path inside the output directory
    std::string text;
};

// GPU backends (cuda, and llvm for NVIDIA) unroll completely each `for`
// loop of 2 to kGpuFullUnrollTrips iterations known at compile time
// (mcpl::constant_loop): gpu_unrolls_fully says which. nvcc's own heuristic keeps such a loop rolled
// when its body is large: matmul_hopper_v3's 8-step k loop of 64
// multiply-adds stayed a loop of 4 LDS.128 and 64 FFMA; unrolled, the loads
// of later steps can be issued ahead of the multiply-adds of earlier ones
// (32 LDS.128 and 512 FFMA, the same 128 registers, no spills).
inline constexpr int64_t kGpuFullUnrollTrips = 16;

inline bool gpu_unrolls_fully(const mcpl::Stmt& for_loop) {
    std::optional<mcpl::ConstantLoop> loop = mcpl::constant_loop(for_loop);
    return loop && loop->trips > 1 && loop->trips <= kGpuFullUnrollTrips;
}

// What `mclc gen --fp-contract` and `--fast-math` allow.
struct FloatingPointFreedom {
    bool contract = false;   // fuse a multiply and an add into one FMA (one rounding instead of two)
    bool fast_math = false;  // also reassociate, and assume no NaN or infinity
    bool any() const { return contract || fast_math; }
};

struct GenerationInput {
    const mcpl::Program& program;
    const mcpl::Module& module;      // the module to generate code for (checked, at `leaf`)
    const hdl::HardwareModel& leaf;  // the leaf it was translated to
    const TargetConfig& target;      // the leaf's code-generation configuration
    // Which arrays the kernels write in every element, found before
    // translation (WriteCoverage.h); by default none, so glue copies in
    // every array a kernel writes.
    WriteCoverage write_coverage = {};
    // The C++ namespace of the glue; empty: the module's name. The runtime's
    // codelet generator sets it (e.g. `mcl_leaf_hopper_opencl::matmul_gpu_v1`) so
    // that one version generated for several leaves links into one program.
    std::string host_namespace = {};
    // The whole hardware library, for backends that need the descriptions of
    // functions at other levels than the leaf (llvm); may be null.
    const hdl::HardwareLibrary* library = nullptr;
    // Floating-point freedoms a backend that compiles the kernels itself
    // (llvm) may take; by default none, so results match the interpreter's.
    FloatingPointFreedom floating_point = {};
    // The CPU an object is for instead of the one the leaf's configuration
    // names (llvm, CPU leaves): an LLVM CPU name, or "native" for the CPU
    // this runs on with all its features (like a C compiler's -march).
    std::string cpu = {};
    // The blocks of each kernel that should fit on one processor (an NVIDIA
    // multiprocessor) at once (cuda, llvm on GPU leaves): the compiler then
    // keeps the registers within a share of the register file, as CUDA's
    // __launch_bounds__(threads, blocks) asks; unset: it decides alone.
    std::optional<int64_t> min_blocks_per_processor = {};
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;
    // Emits kernel source and host glue for every kernel of `module` (its
    // exported functions, or every function with a foreach if it exports
    // none) and the device functions they call, those of imported modules
    // (e.g. lib.math) included. Constructs the backend cannot express are
    // reported to `diags` at the user's location; the result is then
    // incomplete and must not be written.
    virtual std::vector<GeneratedFile> generate(const GenerationInput& input, DiagnosticEngine& diags) const = 0;
    // The assignments of `kernel` that the generated code makes as
    // asynchronous copies, and where it waits for them (AsyncCopies.h), so
    // that `mclc verify` can run the interpreter with stores that land as
    // late; none by default.
    virtual AsyncCopyPlan asynchronous_copies(const GenerationInput& input, const mcpl::Function& kernel,
                                              DiagnosticEngine& diags) const;
};

// The backend registered under `name`, or nullptr.
const Backend* find_backend(const std::string& name);
// Every registered backend, sorted by name.
std::vector<std::string> backend_names();

// The section of `input`'s target configuration for `backend`, or nullptr
// after reporting (located at the configuration file) that it has none.
const BackendConfig* backend_config(const GenerationInput& input, const std::string& backend,
                                    DiagnosticEngine& diags);

// Whether files named after `stem` (`stem.h`, `stem.cpp`) may be written:
// false, after an error at `location`, where an include path holding them
// would give `stem.h` for a header that the glue's headers, or the C and
// POSIX headers beside them, include from the top of one (`time.h` for
// <time.h>, `mcl_runtime.h` for the runtime's own).
bool check_file_stem(const std::string& stem, SourceLocation location, DiagnosticEngine& diags);

// A backend's generate(): runs `Generator(input, config, diags).run()` with
// the configuration's section for `backend`, or returns nothing when it has
// none.
template <typename Generator>
std::vector<GeneratedFile> generate_with(const GenerationInput& input, const std::string& backend,
                                         DiagnosticEngine& diags) {
    const BackendConfig* config = backend_config(input, backend, diags);
    if (!config || !check_file_stem(input.module.name, input.module.location, diags)) return {};
    return Generator(input, *config, diags).run();
}

// An MCPL name as an identifier of generated C, C++, OpenCL C or CUDA code
// that names what the user named and nothing else (distinct names stay
// distinct):
// - a name with the generator's prefix `mcl_` is spelled `mcl_u_...`, which
//   no generated name is;
// - a name with a leading underscore, which C and C++ keep for the
//   implementation (`__global`, `_Bool`), is spelled `mcl_p_...`;
// - a name written in capitals (`NAN`, `M_PI`, `FLT_MAX`,
//   `CLK_LOCAL_MEM_FENCE`: the form of the macros the targets' headers
//   define, which the preprocessor would replace), one of the few lower-case
//   macros (`errno`, `stdout`, `linux`, `assert`), or one of `reserved`, gets
//   a trailing underscore, and so does that name already followed by
//   underscores (`NAN_` becomes `NAN__`).
std::string target_identifier(const std::string& name, const std::set<std::string>& reserved);

// The spelling of what an application's C++ names in every backend's glue:
// a module's namespace, a kernel's host function, a record and its fields.
// target_identifier with the keywords of C++ (and the type words of OpenCL C
// and CUDA, which see the records too) and the glue's own names reserved,
// the same for every backend.
std::string host_identifier(const std::string& name);

// The spelling of a namespace the glue opens at global scope (a module's,
// a runtime's or a graph's): host_identifier with also `main` and every
// name the glue's headers, or the C and POSIX headers an application
// includes beside them, declare at global scope (`div`, `time`, `select`,
// `std`, `cl`, `mcl`) reserved, since a namespace cannot share its name
// with them.
std::string host_namespace_identifier(const std::string& name);

// Kernels of a module: its exported functions, or every function with a
// foreach when it exports none (functions with builtin bodies never are).
std::vector<const mcpl::Function*> module_kernels(const mcpl::Module& module);
// The same, with a located error where the module has none.
std::vector<const mcpl::Function*> module_kernels(const mcpl::Module& module, DiagnosticEngine& diags);

}  // namespace mcl::backends
