// gesummv natively on this CPU: the generated C++ (OpenMP) of the perfect
// and x86 versions at x86_avx2, and the OpenBLAS-based reference.
#include <vector>

#include "GesummvData.h"
#include "gesummv.h"
#include "gesummv_x86.h"

namespace {

template <typename Call>
void bench_cpp(benchmark::State& state, Call call) {
    const gesummv_bench::Problem& p = gesummv_bench::problem();
    std::vector<float> y(p.n, 0.0f);
    call(p.n, gesummv_bench::kAlpha, gesummv_bench::kBeta, y.data(), p.a.data(), p.b.data(), p.x.data());
    if (!gesummv_bench::verify(state, y.data(), p)) return;
    for (auto _ : state) {
        call(p.n, gesummv_bench::kAlpha, gesummv_bench::kBeta, y.data(), p.a.data(), p.b.data(), p.x.data());
        benchmark::DoNotOptimize(y.data());
    }
    state.SetLabel(gesummv_bench::label(p.n));
    mcl::bench::report_gflops(state, gesummv_bench::flops(p.n));
}

void perfect(benchmark::State& s) { bench_cpp(s, &gesummv::gesummv); }
void x86(benchmark::State& s) { bench_cpp(s, &gesummv_x86::gesummv); }

}  // namespace

BENCHMARK(perfect)->Name("gesummv/cpu/mcl_perfect/kernel")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(x86)->Name("gesummv/cpu/mcl_x86/kernel")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(gesummv_bench::bench_openblas)
    ->Name("gesummv/cpu/openblas/kernel")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_MAIN();
