// Pass: generate HLS C++ for an FPGA leaf (Vitis HLS style), with host glue
// that runs the kernel by C simulation (DESIGN.md section 7, the `hls`
// backend).
//
// Needs: a checked module translated to the leaf, the leaf's hardware model
//   and the "hls" section of the leaf's target configuration:
//     "par_groups":    { "<par_group>": { "loop": "pipeline" | "unroll" } }
//     "memory_spaces": { "<space>": { "qualifier": "<prefix of local declarations>",
//                                     "partition": "complete" | "cyclic" (optional),
//                                     "scope": "device" (optional: off the chip) } }
//     "builtins":      { "<library function>": "<callee>" or "<template with $0, $1, ...>" }
//   (atomic builtins are plain read-modify-writes, e.g. "$0 += $1": an HLS
//   kernel is sequential C, so no other unit updates the value meanwhile)
// Does: writes, for module M,
//   - M_kernels.cpp: each kernel an `extern "C"` top function `M_<kernel>` in
//     namespace M::kernels (the kernel name v++ and XRT know it by; the
//     module prefix keeps equally named kernels of two modules apart), the
//     functions it calls in M::kernels::device. Arrays and written scalars
//     are m_axi ports (`offset=slave bundle=gmem`), other scalars and the
//     return value s_axilite. Arrays are flat and indexed row-major as in the
//     cpp backend. A foreach is a plain counted loop: "unroll" loops with a
//     constant trip count (literals, hardware values and constants over them)
//     get `HLS UNROLL`; "pipeline" loops, and "unroll" loops without a
//     constant trip count (a comment says so), get `HLS PIPELINE II=1` unless
//     they contain a loop that would not be unrolled (PIPELINE would have to
//     unroll it; a comment says so, and HLS pipelines the inner loop). Local
//     arrays are C arrays of their constant size, zeroed. `ARRAY_PARTITION`:
//     "complete" partitions every local array of the space completely;
//     "cyclic" partitions one whose elements an unrolled loop's index (or a
//     value computed from it) selects, cyclically by the trip count times the
//     distance of the elements that the index steps over (completely when
//     that covers the array). Pragmas are written `MCL_HLS(HLS ...)`, a macro
//     the file defines as `_Pragma` under __SYNTHESIS__ and as nothing
//     otherwise, so that C simulation compiles without unknown-pragma
//     warnings. A kernel's array of non-constant size outside its foreach
//     loops, in a space of scope "device", with extents from its int
//     parameters is a further m_axi port after the kernel's parameters,
//     zeroed where it is declared. The constant-size arrays of a function
//     in one memory space fit its capacity together: all loops of a kernel
//     are one circuit (check counts two GPU launches apart); the first
//     array past it is an error at its declaration.
//   - M.h: records as structs and `namespace M { void kernel(...); }`, as
//     the cpp backend's.
//   - M.cpp: the glue; it calls the top function in the host process (C
//     simulation; on the card the XRT runtime would load the xclbin built
//     from M_kernels.cpp instead), allocating the device-memory arrays of
//     the call, and turns any exception into an mcl::Error
//     (runtime/mcl_runtime.h, copied as mcl_runtime.h).
//   Located errors: barriers (the units of a pipeline are iterations of
//   sequential C loops), other local arrays whose size is not a constant
//   expression (inside a foreach, in a device function), `return` inside a
//   foreach, a par_group, memory space or builtin function without a
//   configuration entry, and an invalid "loop" or "partition".
// Guarantees: the files compile with `c++ -std=c++17 -Wall -Wextra -Werror`
//   and, run as C simulation, compute what the kernel at `perfect` computes;
//   nothing is returned when an error was reported.
#pragma once

#include "backends/Backend.h"

namespace mcl::backends {

class HlsBackend : public Backend {
public:
    std::string name() const override { return "hls"; }
    std::vector<GeneratedFile> generate(const GenerationInput& input, DiagnosticEngine& diags) const override;
};

}  // namespace mcl::backends
