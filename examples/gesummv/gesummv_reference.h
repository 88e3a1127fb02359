// C++ reference for examples/gesummv (gesummv.mcl), PolyBench gesummv.
//
// y = alpha * a * x + beta * b * x with a, b of n x n (row-major), x, y of
// n. Accumulates in float in the kernel's order (j ascending), so results
// differ from generated code only through fused multiply-add contraction:
// compare with a relative tolerance.
#pragma once

#include <cstddef>

namespace mcl::examples {

inline void gesummv_reference(int n, float alpha, float beta, float* y,
                              const float* a, const float* b,
                              const float* x) {
    const auto sn = static_cast<std::size_t>(n);
    for (std::size_t i = 0; i < sn; ++i) {
        float sumA = 0.0f;
        float sumB = 0.0f;
        for (std::size_t j = 0; j < sn; ++j) {
            sumA += a[i * sn + j] * x[j];
            sumB += b[i * sn + j] * x[j];
        }
        y[i] = alpha * sumA + beta * sumB;
    }
}

}  // namespace mcl::examples
