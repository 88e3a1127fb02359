// The llvm backend's contact with LLVM itself (DESIGN.md section 11): target
// machines for this CPU and for NVIDIA GPUs, the O3 pipeline, object and PTX
// emission, and an ORC JIT session. The one place that absorbs differences
// between LLVM versions: the other files of backends/llvm/ include LLVM only
// through this header or the IR headers it includes.
//
// Needs: LLVM 17 or later (built and tested against 19); the NVPTX target in
//   the LLVM build for nvptx_target_machine (Debian's has it).
// Does:
//   - Target machines compile with FPOpFusion::Strict and no unsafe math, so
//     a multiply and an add stay two rounded operations and results equal
//     the interpreter's bit for bit; only fast-math flags that the lowering
//     sets on instructions relax that. Host code is position independent
//     (it is linked into PIE executables and shared objects) and tuned for
//     this machine's CPU and its features.
//   - optimize runs the new pass manager's default O3 pipeline with the
//     machine's cost models, so the loop and SLP vectorizers target it. For
//     NVIDIA GPUs, LICM there hoists only what runs on every iteration
//     (registers bound a GPU's occupancy), and shared memory is addressed in
//     32 bits (LLVM's nvptx-short-ptr, set once for the process); a test
//     of the local window that inlining answered (a variable, or a kernel's
//     parameter, reached a device function's atomic) is folded, so the
//     variable returns to registers; indices into a kernel's arrays that
//     vary in a loop are computed in 64 bits (WidenAddressIndices.h).
//   - A JitSession links object files in process; their code may call the
//     host symbols it was given and the C library of the process.
// Guarantees: failures come back as false or null with a message in `error`
//   (nothing here aborts on a bad module that the verifier catches); what
//   creates a machine or a JIT session initializes LLVM first; everything is
//   safe to call from several threads on distinct modules, contexts and
//   target machines.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace llvm::orc {
class LLJIT;
}

namespace mcl::backends::llvmir {

// Registers the native target (with its assembly printer and parser) and
// NVPTX; once per process, whichever thread comes first.
void initialize_llvm();

// A machine for this process's triple, CPU and CPU features, at -O3.
std::unique_ptr<llvm::TargetMachine> host_target_machine(std::string& error);

// A machine for this process's triple and the CPU `cpu` (an LLVM CPU name
// such as "x86-64-v3" or "skylake-avx512", with the features it implies):
// objects for a leaf that name its CPU, not this machine's.
std::unique_ptr<llvm::TargetMachine> cpu_target_machine(const std::string& cpu, std::string& error);

// A machine for nvptx64-nvidia-cuda and the GPU architecture `sm` (e.g.
// "sm_90"), emitting PTX ISA 8.0 (what sm_90a needs; ptxas of CUDA 12.0 and
// later reads it).
std::unique_ptr<llvm::TargetMachine> nvptx_target_machine(const std::string& sm, std::string& error);

// Gives `module` the machine's data layout and triple; emit_* and the JIT
// need a module prepared for their machine.
void prepare_module(llvm::Module& module, llvm::TargetMachine& machine);

// Tells the NVPTX back end that `kernel` runs in blocks of at most
// `threads` threads (PTX .maxntid, CUDA's __launch_bounds__(threads)), so
// that ptxas keeps it within the registers that many threads can have, and,
// given `min_blocks`, that so many blocks should be resident on a
// multiprocessor at once (.minnctapersm): the registers then stay within
// that share of the register file.
void set_launch_bounds(llvm::Function& kernel, int64_t threads, std::optional<int64_t> min_blocks);

// Where the memory behind a pointer of NVIDIA GPU code lives, as far as
// its IR shows: a variable of the function (an alloca) is the thread's
// local memory; a global (shared memory) or a kernel's parameter (a
// PTX_Kernel function's) is not; anything else, such as a device
// function's parameter, is unknown until inlining traces it.
enum class GpuStorage { Local, Elsewhere, Unknown };
GpuStorage gpu_storage_of(const llvm::Value* pointer);

// Whether `extension` gives its operand's value sign-extended: a sext, or a
// zext that says its operand is non-negative (zext nneg, from LLVM 18 on).
bool extends_signed_value(const llvm::CastInst& extension);

// Whether `op` is an `or` that says its operands share no set bit (or
// disjoint, from LLVM 18 on): then it is their sum, which cannot overflow.
bool is_disjoint_or(const llvm::BinaryOperator& op);

// The IR verifier: false, with its findings in `error`, when `module` is
// malformed. Run it before optimize on IR that was just built, since LLVM's
// passes assume valid IR.
bool verify_module(const llvm::Module& module, std::string& error);

// The default O3 pipeline for `machine`. `fast_math` says whether the
// lowering put fast-math flags on instructions; the pipeline is the same
// either way (those flags are what allow reassociation and contraction).
void optimize(llvm::Module& module, llvm::TargetMachine& machine, bool fast_math);

// Links the functions `module` calls from the bitcode library at `path`
// (libdevice's __nv_* math functions for NVIDIA GPUs), when it calls any;
// then every function but `keep` (the kernels) becomes internal, so that
// optimization drops what is not called. Math is precise: no flush of
// denormals to zero (the "nvvm-reflect-ftz" flag is 0).
bool link_math_library(llvm::Module& module, const std::string& path, const std::vector<std::string>& keep,
                       std::string& error);

// Machine code for `module` as an object file (ELF here) or as assembly text
// (PTX for an NVPTX machine), into `bytes`.
bool emit_object(llvm::Module& module, llvm::TargetMachine& machine, std::string& bytes, std::string& error);
bool emit_assembly(llvm::Module& module, llvm::TargetMachine& machine, std::string& text, std::string& error);

// The width in bits of the vectors that the vectorizers use for
// `any_function` on `machine`: the widest vector registers, unless the CPU
// prefers narrower ones (LLVM uses 256 bits on AVX-512 CPUs such as Skylake
// server and Sapphire Rapids unless the function has the attribute
// "prefer-vector-width"="512").
int vector_register_bits(llvm::TargetMachine& machine, const llvm::Function& any_function);

// The widest vector registers of `machine`'s CPU in bits (512 with
// AVX-512, 256 with AVX, else 128): explicit vector code uses all of them,
// where LLVM's own vectorizers may prefer narrower ones.
int widest_vector_bits(const llvm::TargetMachine& machine);

// Object files for this machine (emit_object, CodegenUnits) linked in
// process by ORC's LLJIT. The session owns the linked code; addresses from
// lookup stay valid while it lives.
class JitSession {
public:
    // The objects may refer to each other's symbols and call each of
    // `host_symbols` (name, address: functions compiled into the caller,
    // such as runtime_symbols()) and any C library function of the process
    // (expf, memset, ...).
    static std::unique_ptr<JitSession> create(const std::vector<std::string>& objects,
                                              const std::vector<std::pair<std::string, void*>>& host_symbols,
                                              std::string& error);
    ~JitSession();

    // The address of the function or global `name` (its IR name), linking
    // the objects on first use; null, with a message, when it is absent or
    // a symbol it needs is. One thread at a time.
    void* lookup(const std::string& name, std::string& error);

private:
    explicit JitSession(std::unique_ptr<llvm::orc::LLJIT> jit);

    std::unique_ptr<llvm::orc::LLJIT> jit_;
};

}  // namespace mcl::backends::llvmir
