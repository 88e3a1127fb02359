// Shared by the convolution benchmarks: the problem (h x w outputs, an
// fh x fw filter, random in [-1, 1], built once), its C++ reference result,
// the label and the rate (2 * fh * fw flops per output).
#pragma once

#include <string>
#include <vector>

#include "BenchSupport.h"
#include "convolution_reference.h"

namespace conv {

constexpr int H = 2048, W = 2048, FH = 9, FW = 9;
constexpr size_t ASIZE = size_t(H + FH - 1) * (W + FW - 1), BSIZE = size_t(H) * W, FSIZE = FH * FW;

struct Data {
    std::vector<float> a, f, want;
    Data() : a(ASIZE), f(FSIZE), want(BSIZE) {
        unsigned s = 12345;
        auto rnd = [&s] { s = s * 1664525u + 1013904223u; return float(s >> 8) / float(1 << 24) * 2.0f - 1.0f; };
        for (float& x : a) x = rnd();
        for (float& x : f) x = rnd();
        mcl::examples::convolution_reference(H, W, FH, FW, want.data(), a.data(), f.data());
    }
};
inline const Data& data() {
    static Data d;
    return d;
}

inline bool check(benchmark::State& state, const std::vector<float>& b) {
    return mcl::bench::verify(state, b.data(), data().want.data(), BSIZE, 1e-5, 1e-4);
}

inline void finish(benchmark::State& state) {
    state.SetLabel("h=" + std::to_string(H) + ",w=" + std::to_string(W) + ",fh=" + std::to_string(FH) +
                   ",fw=" + std::to_string(FW));
    mcl::bench::report_gflops(state, 2.0 * FH * FW * double(BSIZE));
}

}  // namespace conv
