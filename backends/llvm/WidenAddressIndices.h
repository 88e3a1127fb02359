// WidenAddressIndices: the last IR pass before PTX is emitted. An index into
// a kernel's global array that the lowering computes in 32 bits and extends
// to 64 (`a[i, j]` with `int j = k * 256 + t`, after instcombine
// `zext nneg (add nuw nsw (shl nsw k, 8), t)`) is computed in 64 bits
// instead, operand by operand (`add nsw (sext (shl nsw k, 8)), (sext t)`),
// where that lets loop strength reduction step a pointer through the loop.
//
// Why: LLVM 19's scalar evolution sees through a sign extension of a sum
// that cannot overflow but not always through such a zero extension, nor
// through the unrolled copy's `(k << 8) | 256`, whose shift lost its nsw;
// strength reduction then cannot step one pointer per array: each unrolled
// copy of gesummv_gpu's loop computed its three addresses under its guard
// (8 instructions per copy; nvcc's code steps its pointers).
//
// Needs: the module optimized (instcombine has chosen its extensions); run
//   before code generation, whose IR passes include strength reduction.
// Does: for each extension from 32 to 64 bits (sext, or zext marked nneg)
//   in an innermost loop (strength reduction skips the others) whose every
//   use ends, directly or through 64-bit operations (`i * n + j`,
//   `n - 1 - j`), in the address of an array passed to the kernel (shared
//   and private arrays keep 32-bit sums: registers), and whose address does
//   not step through the loop by scalar evolution now but would widened:
//   rewrites the tree of adds, subtracts, disjoint ors, and multiplies and
//   left shifts by constants under it in 64 bits, sign-extending its leaves.
//   An operation counts when it cannot overflow: marked nsw, or a twin
//   marked nsw (same operation, same operands) computed before it, whose
//   poison would make the program undefined. No loop gets more than 4 such
//   addresses: each holds a 64-bit register across the loop.
// Guarantees: a refinement of the old code (sext(a + b) = sext(a) + sext(b)
//   where the add cannot overflow; where it could, the old value was
//   poison); narrow values that other instructions use stay; the extensions
//   replaced, and what only they used, are deleted. Says whether it changed
//   anything.
#pragma once

#include <llvm/IR/Module.h>

namespace mcl::backends::llvmir {

// Whose arrays: a kernel's (PTX_Kernel functions' pointer parameters), or
// every function's, which lets tests run the rewrite on host code and
// compare results.
enum class WidenedArrays { KernelParameters, AnyParameters };

bool widen_address_indices(llvm::Module& module, WidenedArrays arrays = WidenedArrays::KernelParameters);

}  // namespace mcl::backends::llvmir
