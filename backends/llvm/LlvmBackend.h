// Pass: the llvm backend's `mclc gen` for CPU leaves (DESIGN.md section
// 11): native kernels in an object file, with the same C++ host interface as
// the cpp backend, so that an application links them without compiling
// generated C++ kernels.
//
// Needs: a checked module translated to a CPU leaf, the leaf's target
//   configuration with an "llvm" section:
//     "llvm": { "device_type": "cpu", "cpu": "<LLVM CPU name>" }
//   ("cpu" names the processor the objects are for, e.g. "x86-64-v3" for an
//   AVX2 leaf; objects run on that CPU and later ones; GenerationInput::cpu,
//   `mclc gen --cpu`, replaces it, "native" meaning this machine's), and the hardware
//   library (GenerationInput::library) for the descriptions of functions the
//   kernels call.
// Does: lowers every kernel of the module and what it calls (LowerToIr.h:
//   the outer foreach nest on the thread pool, explicit vector code as wide
//   as the CPU's vectors, barriers as work-item loops), optimizes at O3 and
//   writes, for module M:
//   - M_kernels.o: each kernel `extern "C" void mcl_llvm_<length of M>M_<kernel>(...)`;
//   - M.h: the records and `namespace M { void kernel(...); }`, as the cpp
//     backend writes it;
//   - M.cpp: the host functions, which call the object's kernels, and the
//     thread pool (runtime/mcl_llvm.h, defined weakly);
//   - mcl_runtime.h and mcl_llvm.h.
//   Link M_kernels.o and M.cpp with -pthread.
// Guarantees: the glue compiles with `c++ -std=c++17 -Wall -Wextra -Werror`;
//   kernels compute what the interpreter computes (no contraction or
//   reassociation); an unknown CPU name or a construct the lowering refuses
//   is a located error and nothing is returned.
#pragma once

#include "backends/Backend.h"

namespace mcl::backends {

class LlvmBackend : public Backend {
public:
    std::string name() const override { return "llvm"; }
    std::vector<GeneratedFile> generate(const GenerationInput& input, DiagnosticEngine& diags) const override;
    AsyncCopyPlan asynchronous_copies(const GenerationInput& input, const mcpl::Function& kernel,
                                      DiagnosticEngine& diags) const override;
};

}  // namespace mcl::backends
