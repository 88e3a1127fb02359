// spmv natively on this CPU: the generated C++ (OpenMP) of the perfect and
// x86 versions at x86_avx2 (the C++ reference, sequential, is the check).
// Compiled with MCL_BENCH_LLVM (spmv_llvm_bench), also each version through
// the llvm backend (device "llvm", modules renamed <version>_llvm).
#include <vector>

#include "SpmvData.h"
#include "spmv.h"
#include "spmv_x86.h"
#if MCL_BENCH_LLVM
#include "spmv_llvm.h"
#include "spmv_x86_llvm.h"
#endif

namespace {

void run(benchmark::State& state, decltype(&spmv::spmv) fn) {
    const spmv_bench::Problem& p = spmv_bench::problem();
    std::vector<float> y(p.nrows, 0.0f);
    auto once = [&] {
        fn(p.nrows, p.ncols, p.nnz, y.data(), p.rowptr.data(), p.cols.data(), p.vals.data(), p.x.data());
        benchmark::DoNotOptimize(y.data());
    };
    if (!mcl::bench::timed(state, once, [&] { return spmv_bench::verify(state, y.data(), p); })) return;
    state.SetLabel(spmv_bench::label(p));
    mcl::bench::report_gflops(state, spmv_bench::flops(p));
}

}  // namespace

int main(int argc, char** argv) {
    mcl::bench::add_cpu("spmv", "mcl_perfect", run, spmv::spmv);
    mcl::bench::add_cpu("spmv", "mcl_x86", run, spmv_x86::spmv);
#if MCL_BENCH_LLVM
    mcl::bench::add_llvm("spmv", "mcl_perfect", run, spmv_llvm::spmv);
    mcl::bench::add_llvm("spmv", "mcl_x86", run, spmv_x86_llvm::spmv);
#endif
    return mcl::bench::run_benchmarks(argc, argv);
}
