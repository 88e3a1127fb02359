// histogram on this CPU with the generated C++ (OpenMP) backend (device
// "cpu"): mcl_perfect against the plain C++ reference ("cpp_reference":
// histogram_reference.h at -O3, one thread). GB/s count the bytes of input
// read (4 * n). Verified once against the reference.
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "histogram.h"
#include "histogram_reference.h"

namespace {

constexpr int N = 1 << 24;

struct Data {
    std::vector<int> values, want;
    Data() : values(N), want(256, 0) {
        unsigned s = 777;
        for (int& v : values) { s = s * 1664525u + 1013904223u; v = int((s >> 8) % 296) - 20; }  // -20..275
        mcl::examples::histogram_reference(N, want.data(), values.data());
    }
};
const Data& data() {
    static Data d;
    return d;
}

template <typename Fn>
void run(benchmark::State& state, Fn fn) {
    const Data& d = data();
    std::vector<int> hist(256, 0);
    fn(N, hist.data(), d.values.data());
    if (!mcl::bench::verify(state, hist.data(), d.want.data(), 256, 0, 0)) return;
    for (auto _ : state) {
        fn(N, hist.data(), d.values.data());
        benchmark::DoNotOptimize(hist.data());
    }
    state.SetLabel("n=" + std::to_string(N));
    mcl::bench::report_gbps(state, 4.0 * N);
}

}  // namespace

int main(int argc, char** argv) {
    data();
    auto reg = [](const std::string& variant, auto fn) {
        benchmark::RegisterBenchmark(("histogram/cpu/" + variant + "/kernel").c_str(),
                                     [fn](benchmark::State& s) { run(s, fn); })
            ->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);
    };
    reg("mcl_perfect", histogram::histogram);
    reg("cpp_reference", mcl::examples::histogram_reference);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
