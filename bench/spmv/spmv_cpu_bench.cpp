// spmv natively on this CPU: the generated C++ (OpenMP) of the perfect and
// x86 versions at x86_avx2 (the C++ reference, sequential, is the check).
#include <vector>

#include "SpmvData.h"
#include "spmv.h"
#include "spmv_x86.h"

namespace {

template <typename Call>
void bench_cpp(benchmark::State& state, Call call) {
    const spmv_bench::Problem& p = spmv_bench::problem();
    std::vector<float> y(p.nrows, 0.0f);
    auto once = [&] {
        call(p.nrows, p.ncols, p.nnz, y.data(), p.rowptr.data(), p.cols.data(), p.vals.data(), p.x.data());
    };
    once();
    if (!spmv_bench::verify(state, y.data(), p)) return;
    for (auto _ : state) {
        once();
        benchmark::DoNotOptimize(y.data());
    }
    state.SetLabel(spmv_bench::label(p));
    mcl::bench::report_gflops(state, spmv_bench::flops(p));
}

void perfect(benchmark::State& s) { bench_cpp(s, &spmv::spmv); }
void x86(benchmark::State& s) { bench_cpp(s, &spmv_x86::spmv); }

}  // namespace

BENCHMARK(perfect)->Name("spmv/cpu/mcl_perfect/kernel")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(x86)->Name("spmv/cpu/mcl_x86/kernel")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
