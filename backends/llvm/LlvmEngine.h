// The llvm engine of `mclc run` and `mclc verify` (DESIGN.md sections 10
// and 11): a kernel lowered (LowerToIr.h), optimized at O3 and compiled in
// process by the JIT, then run on the interpreter's storages, so that its
// results compare with the interpreter's cell for cell.
//
// Needs: a checked kernel at any level (translated or not) and the hardware
//   library; storages laid out as interpret::parameter_layouts says.
// Does: compile() lowers the kernel with checks on (a division by zero or an
//   index out of range becomes a located error, not a crash), optimizes and
//   compiles it in code generation units on the pool's threads
//   (CodegenUnits.h) and links them in process, timing each phase. run() copies every parameter into
//   native memory in the kernel's own layout (int 32-bit, float, double,
//   byte, bool a byte, records as C structs), calls the kernel through its
//   entry function (its outer foreach on the thread pool), and copies back
//   what the kernel writes.
// Guarantees: compile() returns null only after reporting why (to `diags`
//   for the kernel's own errors, else in `error`); run() leaves the storages
//   of written parameters holding the kernel's results, or returns the first
//   fault, located.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/Backend.h"
#include "compiler/interpret/Interpreter.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::backends::llvmir {

struct EngineOptions {
    bool checks = true;      // faults instead of undefined behaviour
    FloatingPointFreedom floating_point;  // none by default: results equal the interpreter's
    bool keep_ir = false;    // keep the optimized IR as text (optimized_ir())
};

// Seconds spent in each phase of compile().
struct CompileTimes {
    double lower = 0, optimize = 0, generate = 0;
    double total() const { return lower + optimize + generate; }
};

class CompiledKernel {
public:
    static std::unique_ptr<CompiledKernel> compile(const mcpl::Function& kernel, const hdl::HardwareLibrary& library,
                                                   const EngineOptions& options, DiagnosticEngine& diags,
                                                   std::string& error);
    ~CompiledKernel();

    std::optional<interpret::InterpretError> run(const std::vector<interpret::StoragePtr>& storages) const;

    const CompileTimes& times() const { return times_; }
    // The optimized IR, for inspection (`mclc run --emit-llvm`), when
    // EngineOptions::keep_ir asked for it.
    const std::string& optimized_ir() const { return ir_; }

    struct Impl;

private:
    explicit CompiledKernel(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
    CompileTimes times_;
    std::string ir_;
};

}  // namespace mcl::backends::llvmir
