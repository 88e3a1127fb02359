// C++ reference for examples/convolution (convolution.mcl).
//
// b[i,j] = (sum over y < fh, x < fw of f[y,x] * a[i+y, j+x]) / (fh * fw)
// with b of h x w, a of (h + fh - 1) x (w + fw - 1), f of fh x fw, all
// row-major. Accumulates in float in the kernel's order (y, then x), so
// results differ from generated code only through fused multiply-add
// contraction: compare with a relative tolerance.
#pragma once

#include <cstddef>

namespace mcl::examples {

inline void convolution_reference(int h, int w, int fh, int fw, float* b,
                                  const float* a, const float* f) {
    const auto sw = static_cast<std::size_t>(w);
    const auto sfh = static_cast<std::size_t>(fh);
    const auto sfw = static_cast<std::size_t>(fw);
    const std::size_t aw = sw + sfw - 1;  // row length of a
    const auto area = static_cast<float>(fh * fw);
    for (std::size_t i = 0; i < static_cast<std::size_t>(h); ++i) {
        for (std::size_t j = 0; j < sw; ++j) {
            float sum = 0.0f;
            for (std::size_t y = 0; y < sfh; ++y) {
                for (std::size_t x = 0; x < sfw; ++x) {
                    sum += f[y * sfw + x] * a[(i + y) * aw + (j + x)];
                }
            }
            b[i * sw + j] = sum / area;
        }
    }
}

}  // namespace mcl::examples
