// Code generation: the StarPU codelets of the heterogeneous runtime
// (DESIGN.md section 12), one per kernel, and `<name>::submit`.
//
// Needs: each kernel's signature (the function of one version; every
//   version has the same parameters), its access modes, its flop count as a
//   C++ expression over the scalar parameters, the implementations that were
//   generated (which leaf, version module, worker kind, and the namespace of
//   their host glue), which one an unmatched device of each generic kind
//   runs, the leaves' device matches, and the generated sources to compile.
// Does: emits `<name>.h` (one `submit(runtime, args..., options)` per
//   kernel, named `submit` when the module has one kernel and
//   `submit_<kernel>` otherwise) and `<name>.cpp`, which compiles the
//   versions' sources with it and defines per kernel: a struct of its scalar
//   arguments, per implementation a CPU function (the cpp glue on StarPU's
//   host pointers), an OpenCL function (the resident OpenCL glue on StarPU's
//   context, queue and buffers) and a host-pointer function for the
//   fallback, and the mcl::rt::Kernel that describes them (runtime/
//   mcl_starpu.h does the dispatch). submit checks every array's size
//   against the kernel's extents before it submits.
//   Records of the parameters are defined in `<name>.h` as C++ structs of
//   their fields; the codelets pass them to each version as the glue's own
//   records of the same layout (runtime/mcl_starpu.h checks the sizes).
// Guarantees: written scalars are refused at the parameter (the runtime
//   passes scalars by value), and records named like the generated code's
//   functions, or two records of one name and other fields, at the record;
//   nothing is emitted then.
#pragma once

#include <string>
#include <vector>

#include "backends/Backend.h"
#include "backends/TargetConfig.h"
#include "backends/starpu/VersionTable.h"
#include "compiler/ast/Ast.h"
#include "support/Diagnostics.h"

namespace mcl::backends::starpu {

enum class Access { read, write, read_write };

struct GeneratedImplementation {
    WorkerKind kind;
    std::string leaf;
    std::string module;          // of the version
    std::string host_namespace;  // of its glue
    std::string header;          // its glue header, relative to the output directory
};

struct GenericImplementation {
    std::string device_type;
    WorkerKind kind;
    std::string level;
    size_t implementation;  // index into implementations
};

struct RuntimeKernel {
    const mcpl::Function* signature = nullptr;
    std::vector<Access> modes;  // per parameter; scalars are read
    std::string flops;          // C++ over the parameters' spellings, "0" when unknown
    std::vector<GeneratedImplementation> implementations;
    std::vector<GenericImplementation> generic;
};

struct LeafDevice {
    std::string leaf;
    int depth = 0;
    DeviceMatch match;
};

struct RuntimeModule {
    std::string name;                  // namespace and file names
    std::vector<RuntimeKernel> kernels;
    std::vector<LeafDevice> leaves;    // those with a match block
    std::vector<std::string> sources;  // generated .cpp files to compile, relative
};

std::vector<GeneratedFile> generate_codelets(const RuntimeModule& module, DiagnosticEngine& diags);

// Reports the parameters of `kernel` the runtime cannot pass (the refusals
// above); generate_codelets runs it too.
void check_runtime_parameters(const mcpl::Function& kernel, DiagnosticEngine& diags);

// Whether two versions' parameters have one type: numbers and ranks equal,
// records (each version module may define its own) of one name whose
// fields have the same names, types and extents, in order: one C layout.
bool same_parameter_type(const mcpl::Type& a, const mcpl::Type& b);
bool same_record_fields(const mcpl::RecordType& a, const mcpl::RecordType& b);

// The submit function of `kernel` in a module of `kernels` kernels.
std::string submit_function_name(size_t kernels, const std::string& kernel);

// The spelling of a parameter in `submit` and in the flop count.
std::string parameter_spelling(const std::string& name);

}  // namespace mcl::backends::starpu
