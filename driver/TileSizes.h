// The tile sizes of a kernel, for verify's choice of sizes: a refined
// kernel works in tiles of a constant size T (`divide_up(n, 128)` blocks,
// `foreach (int t in 256 threads)`, `n / 8` full vectors), and its main
// path, full tiles, runs only at sizes of T and more. Verify's default
// sizes (1, 7, 33) miss it for T > 32; a size of T + 1 runs one full tile
// and part of the next.
//
// Needs: a checked kernel (constants fold, calls resolved).
// Does: collects the constant divisors of `divide_up(x, T)` and of `x / T`
//   and `x % T` where x is not constant, and the constant foreach counts,
//   in the kernel and the device functions it calls.
// Guarantees: the sizes are distinct, greater than 1, and in descending
//   order; the kernel is not changed.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ast/Ast.h"

namespace mcl::driver {

std::vector<int64_t> tile_sizes(const mcpl::Function& kernel);

}  // namespace mcl::driver
