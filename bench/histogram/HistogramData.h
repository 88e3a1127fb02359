// Shared by the histogram benchmarks: the values (n of them, -20..275, so
// that some fall outside the 256 bins, built once), the C++ reference
// histogram, the label and the rate (GB/s of input read, 4 * n bytes).
#pragma once

#include <string>
#include <vector>

#include "BenchSupport.h"
#include "histogram_reference.h"

namespace hist {

constexpr int N = 1 << 24;

struct Data {
    std::vector<int> values, want;
    Data() : values(N), want(256, 0) {
        unsigned s = 777;
        for (int& v : values) { s = s * 1664525u + 1013904223u; v = int((s >> 8) % 296) - 20; }  // -20..275
        mcl::examples::histogram_reference(N, want.data(), values.data());
    }
};
inline const Data& data() {
    static Data d;
    return d;
}

inline bool check(benchmark::State& state, const std::vector<int>& hist) {
    return mcl::bench::verify(state, hist.data(), data().want.data(), 256, 0, 0);
}

inline void finish(benchmark::State& state) {
    state.SetLabel("n=" + std::to_string(N));
    mcl::bench::report_gbps(state, 4.0 * N);
}

}  // namespace hist
