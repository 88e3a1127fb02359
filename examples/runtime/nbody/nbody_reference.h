// C++ reference for examples/runtime/nbody (nbody.mcl, nbody_gpu.mcl: both
// levels compute the same thing), in the kernel's parameter order.
//
// bodies: n x 4, row-major (x, y, z, mass). For the block of nb bodies
// first .. first + nb - 1 (0 <= first, first + nb <= n) and softening
// eps2 > 0, acc (nb x 3, row-major) is written in full:
//   acc[i, :] = sum over j of m_j * (r_j - r_i) / (|r_j - r_i|^2 + eps2)^(3/2)
// with r_i the position of body first + i (the term j == first + i is zero).
//
// Accumulates in float in the kernel's order (j ascending) with
// 1 / sqrt(x) for the kernel's rsqrt(x). Generated code may use a
// hardware rsqrt (OpenCL allows 2 ulp) and fused multiply-adds, and the sum
// cancels: compare each component with a relative tolerance plus an absolute
// one scaled to the sum of the absolute values of its terms (1e-4 relative
// plus 1e-5 of that sum is ample; nbody_check.cpp does so).
#pragma once

#include <cmath>
#include <cstddef>

namespace mcl::examples {

inline void nbody_accelerations_reference(int n, int nb, int first, float eps2, float* acc, const float* bodies) {
    const auto sn = static_cast<std::size_t>(n);
    for (std::size_t i = 0; i < static_cast<std::size_t>(nb); ++i) {
        const std::size_t self = static_cast<std::size_t>(first) + i;
        const float xi = bodies[self * 4 + 0];
        const float yi = bodies[self * 4 + 1];
        const float zi = bodies[self * 4 + 2];
        float ax = 0.0f;
        float ay = 0.0f;
        float az = 0.0f;
        for (std::size_t j = 0; j < sn; ++j) {
            const float dx = bodies[j * 4 + 0] - xi;
            const float dy = bodies[j * 4 + 1] - yi;
            const float dz = bodies[j * 4 + 2] - zi;
            const float dist2 = dx * dx + dy * dy + dz * dz + eps2;
            const float inv = 1.0f / std::sqrt(dist2);
            const float s = bodies[j * 4 + 3] * inv * inv * inv;
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        acc[i * 3 + 0] = ax;
        acc[i * 3 + 1] = ay;
        acc[i * 3 + 2] = az;
    }
}

}  // namespace mcl::examples
