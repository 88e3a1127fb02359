// gesummv natively on this CPU: the generated C++ (OpenMP) of the perfect
// and x86 versions at x86_avx2, and the OpenBLAS-based reference. Compiled
// with MCL_BENCH_LLVM (gesummv_llvm_bench), also each version through the
// llvm backend (device "llvm", modules renamed <version>_llvm).
#include <vector>

#include "GesummvData.h"
#include "gesummv.h"
#include "gesummv_x86.h"
#if MCL_BENCH_LLVM
#include "gesummv_llvm.h"
#include "gesummv_x86_llvm.h"
#endif

namespace {

void run(benchmark::State& state, decltype(&gesummv::gesummv) fn) {
    const gesummv_bench::Problem& p = gesummv_bench::problem();
    std::vector<float> y(p.n, 0.0f);
    auto once = [&] {
        fn(p.n, gesummv_bench::kAlpha, gesummv_bench::kBeta, y.data(), p.a.data(), p.b.data(), p.x.data());
        benchmark::DoNotOptimize(y.data());
    };
    if (!mcl::bench::timed(state, once, [&] { return gesummv_bench::verify(state, y.data(), p); })) return;
    state.SetLabel(gesummv_bench::label(p.n));
    mcl::bench::report_gflops(state, gesummv_bench::flops(p.n));
}

}  // namespace

int main(int argc, char** argv) {
    mcl::bench::add_cpu("gesummv", "mcl_perfect", run, gesummv::gesummv);
    mcl::bench::add_cpu("gesummv", "mcl_x86", run, gesummv_x86::gesummv);
#if MCL_BENCH_LLVM
    mcl::bench::add_llvm("gesummv", "mcl_perfect", run, gesummv_llvm::gesummv);
    mcl::bench::add_llvm("gesummv", "mcl_x86", run, gesummv_x86_llvm::gesummv);
#endif
    mcl::bench::add("gesummv/cpu/openblas/kernel", gesummv_bench::bench_openblas);
    return mcl::bench::run_benchmarks(argc, argv);
}
