// Pass: generate CUDA C++ kernels with C++ host glue (DESIGN.md section 7,
// the `cuda` backend).
//
// Needs: a checked module translated to the leaf, the leaf's hardware model
//   and the "cuda" section of the leaf's target configuration:
//     "device_type":   "gpu"
//     "par_groups":    { "<par_group>": { "level": "group" | "item" } }
//     "levels":        { "group": { "dimensions": 3, "index": ["((int)blockIdx.x)", ...] },
//                        "item":  { "dimensions": 3, "index": ["((int)threadIdx.x)", ...] } }
//     "memory_spaces": { "<space>": { "qualifier": "__shared__", "scope": "group",
//                                     "barrier": "__syncthreads()" } }
//     "builtins":      { "<library function>": "<spelling>" }
// Does: plans each kernel's launches (GridMapping.h) and writes, for module M,
//   - M_kernels.cuh: in namespace M::kernels, one `__global__` function per
//     launch (`<kernel>_<n>`), the `__device__` functions before them (they
//     take written scalars by reference). Arrays are pointers (`const` when
//     only read, all `__restrict__`: MCPL forbids aliasing), written scalars
//     one-element device arrays, group-scoped arrays carved out of the
//     launch's dynamic shared memory (`extern __shared__`) at offsets the
//     host passes, each rounded up to 16 bytes (static `__shared__` arrays
//     could take only 48 KB); arrays in device-scoped spaces declared in the
//     kernel are scratch buffers the glue allocates (GridMapping.h). Slot
//     sizes are passed as int arguments.
//     Module constants are constexpr. Copies from global into shared
//     memory that AsyncCopies.h finds are `__pipeline_memcpy_async`, waited
//     for with `__pipeline_commit(); __pipeline_wait_prior(0);` where it
//     says (<cuda_pipeline.h>: cp.async from sm_80, a plain copy before).
//   - M.h: records, `namespace M { void kernel(...); }` with host pointers
//     (the contract of DESIGN.md section 7), `M::device()`, and
//     `M::resident::kernel(...)` taking mcl::cuda::DeviceArray<T>& for arrays
//     and written scalars, so data stays on the device across calls.
//   - M.cu: the glue, which includes M_kernels.cuh: it picks the device
//     (runtime/mcl_cuda.h), copies in the arrays and written scalars the
//     kernel reads or may not overwrite entirely (GenerationInput's
//     write_coverage), checks every launch's grid, block and shared memory
//     sizes against the device's limits, opts in to more than 48 KB of
//     dynamic shared memory where a launch needs it, runs the statements
//     around the launches on the host (time step loops, GridMapping.h) and
//     every launch with the sizes computed there, copies out what it
//     writes, waits, and throws mcl::Error with the CUDA error text on any
//     failure.
//   - mcl_runtime.h and mcl_cuda.h, the runtime headers the glue includes.
// Guarantees: the files compile with `nvcc -std=c++17 -Werror all-warnings
//   -Xcompiler -Wall,-Wextra` and compute what the kernel at `perfect`
//   computes for every size the device's limits allow (larger launches throw
//   mcl::Error instead of running); nothing is returned when an error was
//   reported.
#pragma once

#include "backends/Backend.h"

namespace mcl::backends {

class CudaBackend : public Backend {
public:
    std::string name() const override { return "cuda"; }
    std::vector<GeneratedFile> generate(const GenerationInput& input, DiagnosticEngine& diags) const override;
    AsyncCopyPlan asynchronous_copies(const GenerationInput& input, const mcpl::Function& kernel,
                                      DiagnosticEngine& diags) const override;
};

}  // namespace mcl::backends
