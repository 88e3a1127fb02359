// Pass: generate C++17 with OpenMP for a CPU leaf, with host glue
// (DESIGN.md section 7, the `cpp` backend).
//
// Needs: a checked module translated to the leaf, the leaf's hardware model
//   and the "cpp" section of the leaf's target configuration:
//     "par_groups":    { "<par_group>": { "map": "parallel_for" | "simd_loop" | "loop" } }
//     "memory_spaces": { "<space>": { "qualifier": "<prefix of local declarations>" } }
//     "builtins":      { "<library function>": "<callee>" or "<template with $0, $1, ...>" }
//   (a template substitutes argument expressions as written, so one that
//   names an argument twice evaluates it twice: use a helper function then)
// Does: writes, for module M,
//   - M_kernels.cpp: each kernel a C++ function in namespace M::kernels, the
//     functions it calls in M::kernels::device. Arrays are flat pointers,
//     indexed row-major over all dimension groups (`a[i,j]` of `float[n,m]`
//     is `a[(i) * (m) + (j)]`; tiles likewise; an `as` view is indexed with
//     its own shape); an index that names a tile or row yields a pointer to
//     it. A kernel's written scalars are pointers; a device function's are
//     references. Read-only arrays are `const T* __restrict__` (MCPL forbids
//     aliasing). A foreach nest over a "parallel_for" par_group that is not
//     already inside one becomes `#pragma omp parallel for` (collapse(k) for
//     a perfect nest of k loops), "simd_loop" likewise `#pragma omp simd`,
//     anything else a plain loop. Library functions with builtin bodies are
//     spelt as the configuration says; atomicAdd's helper `mcl_atomic_add`
//     is an `#pragma omp atomic` update in the generated prelude.
//   - M.h: records as structs and `namespace M { void kernel(...); }` with
//     the kernel's parameters in MCPL order (scalars by value, arrays and
//     written scalars as pointers, `const T*` when only read).
//   - M.cpp: the glue; it calls the kernel and turns any exception into an
//     mcl::Error (runtime/mcl_runtime.h, copied as mcl_runtime.h).
//   Barriers are reported as unsupported (a located error), as are a
//   par_group or memory space without a configuration entry and a builtin
//   function without a spelling.
// Guarantees: the files compile with `c++ -std=c++17 -fopenmp -Wall -Wextra
//   -Werror` and compute what the kernel at `perfect` computes; nothing is
//   returned when an error was reported.
#pragma once

#include "backends/Backend.h"

namespace mcl::backends {

class CppBackend : public Backend {
public:
    std::string name() const override { return "cpp"; }
    std::vector<GeneratedFile> generate(const GenerationInput& input, DiagnosticEngine& diags) const override;
};

}  // namespace mcl::backends
