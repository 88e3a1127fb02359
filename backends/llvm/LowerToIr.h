// Pass: lower checked MCPL kernels to LLVM IR for this CPU (DESIGN.md
// section 11), at whatever level they are written: perfect, cpu, x86_avx2,
// and the GPU levels, whose barriers run here too.
//
// Needs: a checked Program (translated or not), the kernels to lower, the
//   hardware library (par_groups, memory-space scopes, SIMD widths), and an
//   llvm::Module prepared for the target (LlvmSupport.h: triple and data
//   layout set).
// Does:
//   - every kernel becomes `void <symbol>(params...)` with C linkage:
//     scalars by value (int i32, float, double, byte i8, bool i8), arrays,
//     records and written scalars as pointers; and `void <symbol>_entry(ptr
//     args)` that takes one pointer per parameter (to the value of a
//     scalar), for the JIT. Device functions (user functions the kernels
//     call, across modules) become internal functions; library functions
//     with builtin bodies are the math intrinsics and libm's single-precision
//     functions, and atomic read-modify-writes.
//   - arrays are flat and row-major over all dimension groups, offsets in 64
//     bits (`float[n,m]` element [i,j] at i*m + j); int is i32 whose
//     signed overflow is undefined as in C (nsw; with `checks` it wraps
//     instead); C's conversions; no floating-point contraction or
//     reassociation (unless floating_point allows them), so results equal
//     the interpreter's.
//   - the outermost foreach nest of a kernel (loops over one par_group,
//     collapsed) runs on the thread pool (mcl_llvm_parallel_for, in
//     runtime/mcl_llvm.h): its body is outlined into a function over a range
//     of units;
//   - an innermost foreach whose body is vectorizable (VaryingAnalysis.h)
//     becomes explicit vector code: W units a vector (W: the description's
//     width when the par_group runs on SIMD lanes, else the widest vector
//     register of the target for the body's widest element), uniform values
//     scalar, linear indices contiguous (masked) loads and stores, others
//     gathers and scatters, conditions as masks, a masked tail; inside a
//     loop that writes only scalars, an element of the lanes' own rows (the
//     last index the same in every lane) comes from a row tile (RowTiles.h)
//     instead of a gather. Other
//     innermost foreach loops are scalar loops whose accesses to parameters
//     and outer arrays are marked parallel (llvm.loop.parallel_accesses) for
//     LLVM's loop vectorizer;
//   - an int array of a small constant size that the pool's body only
//     updates with atomicAddInt (a histogram) is counted in a zeroed copy
//     per range of units, added into the array atomically at the range's end;
//   - a foreach whose units synchronise at a barrier (as the interpreter
//     decides: a barrier whose memory space's scope is at or outside the
//     foreach's par_group) runs its units in lock-step with work-item loops
//     (as PoCL does): each stretch of statements between barriers is a loop
//     over all units; variables that live across a barrier get one copy per
//     unit; a condition or loop around a barrier is evaluated by the first
//     unit (MCPL requires the units to agree; the interpreter checks it).
//     A call there of a function with a barrier (a statement, or anywhere in
//     a statement's expressions) has its body lowered in place, for the
//     units together, before the statement runs unit by unit with each
//     unit's result;
//   - with `checks`, integer division by zero or overflow and every index
//     outside its extent call mcl_llvm_fault(code, site) and go on with a
//     harmless value instead of undefined behaviour; `fault_sites` maps each
//     site to the source location. An index that IndexRanges.h proves
//     inside its extent (a constant extent above its range, the count its
//     foreach index stays below, or a guard `if (x < d)` around it) and a
//     division by a constant are not checked;
//   - in vector code, a scalar function (libm's, or a user function) is
//     called through one out-of-line loop over the lanes per function and
//     width, not inline once per lane;
//   Constructs the backend cannot run (a function with a barrier that
//   returns before its last statement or returns a record, or called
//   recursively, or in the right operand of && or ||, or, on the CPU,
//   outside lock-step code; a return inside a foreach; a swap of arrays that live one per
//   unit) are located errors.
// Guarantees: on success the module verifies (llvm::verifyModule) and each
//   kernel computes what the interpreter computes for a program without
//   undefined behaviour; on failure an error was reported to `diags`.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backends/Backend.h"
#include "backends/cfamily/AsyncCopies.h"
#include "backends/cfamily/GridMapping.h"
#include "backends/llvm/LlvmSupport.h"
#include "compiler/sema/Program.h"
#include "hdl/HardwareModel.h"
#include "support/Diagnostics.h"

namespace mcl::backends::llvmir {

// One launch of a kernel's grid plan (GridMapping.h) as NVIDIA device code:
// a `ptx_kernel` function named `symbol` that takes the kernel's parameters,
// then the slot sizes (int: the group slots, then the item slots), the host
// variables the launch uses (by value), its scratch arrays (pointers), and
// the byte offset (long) of each of its group arrays in the launch's dynamic
// shared memory, in that order.
struct GridLaunchLowering {
    const mcpl::Function* kernel = nullptr;
    const GridPlan* plan = nullptr;
    const GridLaunch* launch = nullptr;
    std::string symbol;
    std::vector<const mcpl::Decl*> host_arguments;
    std::vector<const mcpl::Decl*> scratch_arrays;
    std::optional<int64_t> max_threads;  // per block, for launch bounds (GridMapping.h: max_items_per_group)
    std::optional<int64_t> min_blocks;   // resident per multiprocessor, for launch bounds (with max_threads)
    const AsyncCopyPlan* async = nullptr;  // copies as cp.async and where to wait (AsyncCopies.h), if any
};

// Lowering for NVIDIA GPUs (nvptx64): each launch a kernel whose foreach
// loops take the grid's indices, barriers __syncthreads, group arrays
// shared memory, a launch's asynchronous copies cp.async (as inline PTX);
// math functions are libdevice's (__nv_*). A function with a barrier is
// called by every thread, as a __device__ function is, and is convergent.
struct GridLowering {
    std::vector<GridLaunchLowering> launches;
};

struct LoweringOptions {
    int vector_bits = 256;   // the target's widest vector register (LlvmSupport.h: vector_register_bits)
    bool checks = false;     // fault instead of undefined behaviour (mclc run and verify)
    FloatingPointFreedom floating_point;  // none by default: results equal the interpreter's
    bool parallel = true;    // the outermost foreach nest on the thread pool
    // For run and verify, which compile every time and run test sizes:
    // functions optimized for size and loops without runtime unrolling (a
    // loop copied with a remainder loop, which doubled the compile time of
    // kernels whose checks LLVM could drop).
    bool quick_compile = false;
    const GridLowering* grid = nullptr;  // NVIDIA device code instead of CPU code
};

struct LoweredKernel {
    const mcpl::Function* kernel = nullptr;
    std::string symbol;        // void symbol(params...), C linkage
    std::string entry_symbol;  // void entry(void** args)
};

struct LoweredModule {
    std::vector<LoweredKernel> kernels;
    std::vector<SourceLocation> fault_sites;  // site number -> location
};

// The symbol of a kernel's function: mcl_llvm_<length of module><module>_<kernel>
// (mcl_llvm_6matmul_matmul), distinct for distinct module and kernel names.
std::string kernel_symbol(const mcpl::Function& kernel);

// The description a function names (null when unknown: its foreach loops
// then run as plain loops and its barriers synchronise nothing).
using FindModel = std::function<const hdl::HardwareModel*(const std::string& description)>;

// Lowers `kernels` (with options.grid: the launches of options.grid) and
// everything they call into `module` (see above);
// false after reporting an error to `diags`.
bool lower_to_ir(const std::vector<const mcpl::Function*>& kernels, const FindModel& find_model,
                 const LoweringOptions& options, llvm::Module& module, LoweredModule& lowered,
                 DiagnosticEngine& diags);

// The LLVM type of one element of `t` (records as structs, in C's layout);
// the JIT engine lays out its buffers with it.
llvm::Type* element_type(llvm::LLVMContext& context, const mcpl::Type& t);

}  // namespace mcl::backends::llvmir
