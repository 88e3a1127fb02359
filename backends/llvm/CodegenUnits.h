// Code generation units for the llvm engine (DESIGN.md section 11): a
// lowered module cut into parts that are optimized and compiled to machine
// code on parallel threads, as LTO's parallel code generation and rustc's
// codegen units do, so that a kernel with several parallel bodies reaches
// its first run in less wall time.
//
// Needs: a verified module prepared for this machine (prepare_module), in
//   a context of its own.
// Does:
//   - split() cuts the module only where nothing but a function's address
//     links two functions: the outlined bodies that a kernel hands to the
//     thread pool (mcl_llvm_parallel_for), which no optimization sees
//     through anyway. The parts are the connected components of the direct
//     call graph; they are packed, largest first, into at most `max_units`
//     units of near-equal instruction counts. A body whose address is taken
//     becomes a hidden external symbol so that another unit can name it.
//     A module that defines global variables or aliases (the lowering makes
//     none), or that has a single part, stays one unit.
//   - Each unit gets a context and a target machine of its own (the module
//     travels as bitcode). optimize() runs the O3 pipeline (LlvmSupport's
//     optimize) and generate() emits an object file, on one thread per unit.
// Guarantees: the objects linked together (JitSession) behave as the whole
//   module compiled at once would, since the units share no code and no
//   data, only the addresses that were passed at run time before; the IR of
//   every function keeps its name. Failures come back as false or null with
//   a message in `error`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/llvm/LlvmSupport.h"

namespace mcl::backends::llvmir {

class CodegenUnits {
public:
    static std::unique_ptr<CodegenUnits> split(std::unique_ptr<llvm::Module> module,
                                               std::unique_ptr<llvm::LLVMContext> context, int max_units,
                                               std::string& error);
    ~CodegenUnits();

    size_t size() const { return units_.size(); }

    bool optimize(bool fast_math, std::string& error);
    // One object file per unit, for this machine.
    bool generate(std::vector<std::string>& objects, std::string& error);
    // The IR of every unit as it is now (as split, or optimized after
    // optimize()), one module after another.
    std::string ir() const;

private:
    struct Unit;
    explicit CodegenUnits(std::vector<std::unique_ptr<Unit>> units);

    // Calls work(unit, its index) for every unit, each on its own thread (the caller
    // takes the first); false with the first unit's error if any failed.
    template <typename Work>
    bool for_each_unit(Work work, std::string& error);

    std::vector<std::unique_ptr<Unit>> units_;
};

}  // namespace mcl::backends::llvmir
