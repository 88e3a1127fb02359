// C++ reference for examples/cnc/pipeline (pipeline_steps.mcl and
// pipeline_steps_gpu.mcl compute the same thing), in the kernels' parameter
// order. Images are h x w floats, row-major; out and src are different
// arrays; every element of out is written. Neighbours outside the image are
// clamped to the nearest pixel (coordinates clamped to 0 .. h-1, 0 .. w-1).
//
//   denoise_reference(h, w, out, src):      3 x 3 Gaussian (1 2 1 / 2 4 2 /
//                                           1 2 1) / 16;
//   gradient_reference(h, w, out, src):     Sobel magnitude sqrt(gx^2 + gy^2);
//   threshold_reference(h, w, t, out, src): out = src > t ? 1 : 0;
//   pipeline_reference(h, w, t, out, src):  the three in sequence (what a
//                                           graph computes per image).
//
// The sums are formed in the kernels' order in float, so results differ from
// generated code only where a compiler contracts multiply-adds into fused
// ones or uses another sqrt: compare denoise and gradient with a relative
// tolerance (1e-5 relative plus 1e-6 absolute for values of magnitude 1),
// threshold exactly. After a pipeline, a pixel whose gradient lies within
// rounding of t may differ: compare the thresholded image allowing those.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace mcl::examples {

inline void denoise_reference(int h, int w, float* out, const float* src) {
    const auto sw = static_cast<std::size_t>(w);
    for (int i = 0; i < h; ++i) {
        for (int j = 0; j < w; ++j) {
            float sum = 0.0f;
            for (int y = 0; y < 3; ++y) {
                const int gy = std::min(std::max(i + y - 1, 0), h - 1);
                const int wy = 2 - (y - 1) * (y - 1);
                for (int x = 0; x < 3; ++x) {
                    const int gx = std::min(std::max(j + x - 1, 0), w - 1);
                    const int wx = 2 - (x - 1) * (x - 1);
                    sum += static_cast<float>(wy * wx) * src[static_cast<std::size_t>(gy) * sw + static_cast<std::size_t>(gx)];
                }
            }
            out[static_cast<std::size_t>(i) * sw + static_cast<std::size_t>(j)] = sum / 16.0f;
        }
    }
}

inline void gradient_reference(int h, int w, float* out, const float* src) {
    const auto sw = static_cast<std::size_t>(w);
    auto at = [&](int y, int x) { return src[static_cast<std::size_t>(y) * sw + static_cast<std::size_t>(x)]; };
    for (int i = 0; i < h; ++i) {
        for (int j = 0; j < w; ++j) {
            const int y0 = std::max(i - 1, 0);
            const int y2 = std::min(i + 1, h - 1);
            const int x0 = std::max(j - 1, 0);
            const int x2 = std::min(j + 1, w - 1);
            const float gx = (at(y0, x2) + 2.0f * at(i, x2) + at(y2, x2)) - (at(y0, x0) + 2.0f * at(i, x0) + at(y2, x0));
            const float gy = (at(y2, x0) + 2.0f * at(y2, j) + at(y2, x2)) - (at(y0, x0) + 2.0f * at(y0, j) + at(y0, x2));
            out[static_cast<std::size_t>(i) * sw + static_cast<std::size_t>(j)] = std::sqrt(gx * gx + gy * gy);
        }
    }
}

inline void threshold_reference(int h, int w, float t, float* out, const float* src) {
    const std::size_t n = static_cast<std::size_t>(h) * static_cast<std::size_t>(w);
    for (std::size_t e = 0; e < n; ++e) out[e] = src[e] > t ? 1.0f : 0.0f;
}

inline void pipeline_reference(int h, int w, float t, float* out, const float* src) {
    const std::size_t n = static_cast<std::size_t>(h) * static_cast<std::size_t>(w);
    std::vector<float> smooth(n), grad(n);
    denoise_reference(h, w, smooth.data(), src);
    gradient_reference(h, w, grad.data(), smooth.data());
    threshold_reference(h, w, t, out, grad.data());
}

}  // namespace mcl::examples
