// convolution on this CPU with the generated C++ (OpenMP) backend (device
// "cpu"): mcl_perfect and mcl_x86 (the cache-blocked CPU version) against the
// plain C++ reference ("cpp_reference": convolution_reference.h at -O3, one
// thread). GFLOPS count 2 * fh * fw flops per output. Verified once against
// the reference.
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "convolution.h"
#include "convolution_reference.h"
#include "convolution_x86.h"

namespace {

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
const Data& data() {
    static Data d;
    return d;
}

template <typename Fn>
void run(benchmark::State& state, Fn fn) {
    const Data& d = data();
    std::vector<float> b(BSIZE);
    fn(H, W, FH, FW, b.data(), d.a.data(), d.f.data());
    if (!mcl::bench::verify(state, b.data(), d.want.data(), BSIZE, 1e-5, 1e-4)) return;
    for (auto _ : state) {
        fn(H, W, FH, FW, b.data(), d.a.data(), d.f.data());
        benchmark::DoNotOptimize(b.data());
    }
    state.SetLabel("h=" + std::to_string(H) + ",w=" + std::to_string(W) + ",fh=" + std::to_string(FH) +
                   ",fw=" + std::to_string(FW));
    mcl::bench::report_gflops(state, 2.0 * FH * FW * double(BSIZE));
}

}  // namespace

int main(int argc, char** argv) {
    data();
    auto reg = [](const std::string& variant, auto fn) {
        benchmark::RegisterBenchmark(("convolution/cpu/" + variant + "/kernel").c_str(),
                                     [fn](benchmark::State& s) { run(s, fn); })
            ->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);
    };
    reg("mcl_perfect", convolution::convolution);
    reg("mcl_x86", convolution_x86::convolution);
    reg("cpp_reference", mcl::examples::convolution_reference);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
