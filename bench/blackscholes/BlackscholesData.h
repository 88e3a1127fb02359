// Inputs, sizes and rates shared by the blackscholes benchmarks. GFLOPS count
// 64 flops per option: the computational instructions per option that
// `mclc feedback` reports for blackscholes.mcl (64*n; log, exp, sqrt and
// each division counted as one).
#pragma once

#include <string>
#include <vector>

#include "BenchSupport.h"
#include "blackscholes_reference.h"

namespace bs {

constexpr int N = 1 << 22;
constexpr float RISKFREE = 0.02f, VOLATILITY = 0.30f;
constexpr double FLOPS_PER_OPTION = 64;

struct Data {
    std::vector<float> price, strike, years, call, put;
    Data() : price(N), strike(N), years(N), call(N), put(N) {
        unsigned s = 4242;
        auto rnd = [&s](float lo, float hi) {
            s = s * 1664525u + 1013904223u;
            return lo + (hi - lo) * (float(s >> 8) / float(1 << 24));
        };
        for (int i = 0; i < N; ++i) {
            price[i] = rnd(5, 30);
            strike[i] = rnd(1, 100);
            years[i] = rnd(0.25f, 10);
        }
        mcl::examples::blackscholes_reference(N, RISKFREE, VOLATILITY, call.data(), put.data(), price.data(),
                                              strike.data(), years.data());
    }
};
inline const Data& data() {
    static Data d;
    return d;
}

inline bool check(benchmark::State& state, const std::vector<float>& call, const std::vector<float>& put) {
    const Data& d = data();
    return mcl::bench::verify(state, call.data(), d.call.data(), N, 1e-4, 1e-4) &&
           mcl::bench::verify(state, put.data(), d.put.data(), N, 1e-4, 1e-4);
}

inline void finish(benchmark::State& state) {
    state.SetLabel("n=" + std::to_string(N));
    mcl::bench::report_gflops(state, FLOPS_PER_OPTION * N);
}

}  // namespace bs
