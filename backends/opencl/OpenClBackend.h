// Pass: generate OpenCL C 1.2 kernels with C++ host glue (DESIGN.md
// section 7, the `opencl` backend).
//
// Needs: a checked module translated to the leaf, the leaf's hardware model
//   and the "opencl" section of the leaf's target configuration:
//     "device_type":   "gpu" | "cpu" | "accelerator" (the device the glue picks)
//     "par_groups":    { "<par_group>": { "level": "group" | "item" } }
//     "levels":        { "group": { "dimensions": 3, "index": ["get_group_id(0)", ...] },
//                        "item":  { "dimensions": 3, "index": ["get_local_id(0)", ...] } }
//     "memory_spaces": { "<space>": { "qualifier": "__global", "scope": "device",
//                                     "barrier": "barrier(CLK_GLOBAL_MEM_FENCE)" } }
//     "builtins":      { "<library function>": "<spelling>" }
// Does: plans each kernel's launches (GridMapping.h) and writes, for module M,
//   - M.cl: one `__kernel` per launch (`<kernel>_<n>`), the device functions
//     before them, each once per combination of address spaces (`__global`,
//     `__local`, private) of the arrays its calls pass (the first keeps its
//     name, the others are `mcl_as_<spaces>_<name>`). Arrays are `__global` pointers (const and restrict when
//     only read; MCPL forbids aliasing), written scalars one-element buffers,
//     group-scoped arrays `__local` at kernel scope or, when their size is
//     not constant, `__local` kernel arguments sized by the host; arrays in
//     device-scoped spaces declared in the kernel `__global` scratch buffers
//     the glue allocates (GridMapping.h, GridEmitter.h). Slot sizes are
//     passed as int arguments. Doubles enable cl_khr_fp64.
//   - M.h: records, `namespace M { void kernel(...); }` with host pointers
//     (the contract of DESIGN.md section 7), `M::device()`, and
//     `M::resident::kernel(...)` taking mcl::opencl::DeviceArray<T>& for
//     arrays and written scalars, so data stays on the device across calls.
//   - M.cpp: the glue, with M.cl embedded: it picks the device
//     (runtime/mcl_opencl.h), builds the program once, copies in the arrays
//     and written scalars the kernel reads or may not overwrite entirely
//     (GenerationInput's write_coverage), allocates the scratch buffers,
//     runs the statements around the launches on the host (time step loops,
//     GridMapping.h) and every launch with the sizes computed there, copies
//     out what it writes, waits, and throws mcl::Error with the OpenCL error
//     text on any failure.
//   - mcl_runtime.h and mcl_opencl.h, the runtime headers the glue includes.
// Guarantees: the kernel source builds with the OpenCL compiler without
//   warnings and computes what the kernel at `perfect` computes for every
//   size; nothing is returned when an error was reported.
#pragma once

#include "backends/Backend.h"

namespace mcl::backends {

class OpenClBackend : public Backend {
public:
    std::string name() const override { return "opencl"; }
    std::vector<GeneratedFile> generate(const GenerationInput& input, DiagnosticEngine& diags) const override;
};

}  // namespace mcl::backends
