// Shared by the gesummv benchmarks: the problem (n x n, random in [-1, 1],
// built once), its C++ reference result and the OpenBLAS-based reference.
#pragma once

#include <cblas.h>

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "gesummv_reference.h"

namespace gesummv_bench {

constexpr int kN = 4096;
constexpr float kAlpha = 1.5f;
constexpr float kBeta = -0.75f;

struct Problem {
    int n;
    std::vector<float> a, b, x, want;
    explicit Problem(int n_) : n(n_), a(std::size_t(n_) * n_), b(std::size_t(n_) * n_), x(n_), want(n_) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (float& v : a) v = u(rng);
        for (float& v : b) v = u(rng);
        for (float& v : x) v = u(rng);
        mcl::examples::gesummv_reference(n, kAlpha, kBeta, want.data(), a.data(), b.data(), x.data());
    }
};

inline const Problem& problem() {
    static const Problem p(kN);
    return p;
}

inline std::string label(int n) { return "n=" + std::to_string(n); }
inline double flops(int n) { return 4.0 * double(n) * double(n); }

// Float sums of n terms in different orders: compare with a tolerance.
inline bool verify(benchmark::State& state, const float* got, const Problem& p) {
    return mcl::bench::verify(state, got, p.want.data(), std::size_t(p.n), 2e-3, 1e-3);
}

// y = alpha * a * x + beta * b * x as two sgemv calls: the second
// accumulates into the first's result (its beta = 1 does the combine).
inline void openblas_gesummv(const Problem& p, float* y) {
    cblas_sgemv(CblasRowMajor, CblasNoTrans, p.n, p.n, kAlpha, p.a.data(), p.n, p.x.data(), 1, 0.0f, y, 1);
    cblas_sgemv(CblasRowMajor, CblasNoTrans, p.n, p.n, kBeta, p.b.data(), p.n, p.x.data(), 1, 1.0f, y, 1);
}

inline void bench_openblas(benchmark::State& state) {
    const Problem& p = problem();
    std::vector<float> y(p.n, 0.0f);
    openblas_gesummv(p, y.data());
    if (!verify(state, y.data(), p)) return;
    for (auto _ : state) {
        openblas_gesummv(p, y.data());
        benchmark::DoNotOptimize(y.data());
    }
    state.SetLabel(label(p.n));
    mcl::bench::report_gflops(state, flops(p.n));
}

}  // namespace gesummv_bench
