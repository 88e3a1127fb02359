// `mclc gen --runtime starpu FILE... -o DIR`: every version of a kernel
// (e.g. examples/matmul/*.mcl) as tasks of the heterogeneous runtime
// (DESIGN.md section 12). Checks the versions and that they agree on each
// kernel's parameters, picks per leaf the most specific version
// (backends/starpu/VersionTable.h), prints the table and writes it to
// DIR/versions.txt, generates each chosen version for its leaf with the
// cpp and opencl backends into DIR/<leaf>-<backend>/, counts each kernel's
// flops with the feedback's operation statistics (of its most abstract
// version), and writes the codelets and `submit` functions
// (backends/starpu/CodeletGenerator.h) with the runtime headers.
#pragma once

#include <iosfwd>

#include "driver/FrontendCommands.h"
#include "driver/GenCommands.h"

namespace mcl::driver {

// "" when mclc generates for `runtime`, else why not ("unknown runtime ...").
std::string unknown_runtime(const std::string& runtime);

// `kernel_count`, when given, receives the number of kernels generated.
int runtime_gen_command(const FrontendOptions& options, const GenOptions& gen, std::ostream& out, std::ostream& err,
                        size_t* kernel_count = nullptr);

// `mclc gen --graph G.cnc [FILE...] -o DIR`: checks the graph against its
// steps' kernels, generates the kernels (the imported modules and the
// further versions FILE...) as runtime tasks in namespace <G>_steps, and
// the graph's coordination code (cnc/GenerateGraph.h) in namespace <G>.
int graph_gen_command(const FrontendOptions& options, const GenOptions& gen, std::ostream& out, std::ostream& err);

}  // namespace mcl::driver
