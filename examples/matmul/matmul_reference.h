// C++ reference for examples/matmul (matmul.mcl, matmul_gpu.mcl,
// matmul_gpu_v1.mcl: all levels compute the same thing).
//
// c += a * b with c of n x m, a of n x p, b of p x m, all row-major.
// Accumulates in float in the kernel's order (k ascending, then added to c),
// so results differ from generated code only where a compiler contracts
// a * b + sum into a fused multiply-add: compare with a relative tolerance.
#pragma once

#include <cstddef>

namespace mcl::examples {

inline void matmul_reference(int n, int m, int p, float* c, const float* a,
                             const float* b) {
    const auto sm = static_cast<std::size_t>(m);
    const auto sp = static_cast<std::size_t>(p);
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
        for (std::size_t j = 0; j < sm; ++j) {
            float sum = 0.0f;
            for (std::size_t k = 0; k < sp; ++k) {
                sum += a[i * sp + k] * b[k * sm + j];
            }
            c[i * sm + j] += sum;
        }
    }
}

}  // namespace mcl::examples
