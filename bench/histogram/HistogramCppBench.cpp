// histogram on this CPU with the generated C++ (OpenMP) backend (device
// "cpu"): mcl_perfect against the plain C++ reference ("cpp_reference":
// histogram_reference.h at -O3, one thread). GB/s count the bytes of input
// read (4 * n). Verified once against the reference. Compiled with
// MCL_BENCH_LLVM (histogram_llvm_bench), also through the llvm backend
// (device "llvm", module renamed histogram_llvm), same iteration count.
#include <vector>

#include "HistogramData.h"
#include "histogram.h"
#if MCL_BENCH_LLVM
#include "histogram_llvm.h"
#endif

namespace {

using namespace hist;

void run(benchmark::State& state, decltype(&histogram::histogram) fn) {
    const Data& d = data();
    std::vector<int> hist(256, 0);
    auto once = [&] {
        fn(N, hist.data(), d.values.data());
        benchmark::DoNotOptimize(hist.data());
    };
    if (mcl::bench::timed(state, once, [&] { return check(state, hist); })) finish(state);
}

}  // namespace

int main(int argc, char** argv) {
    data();
    mcl::bench::add_cpu("histogram", "mcl_perfect", run, histogram::histogram, 3);
    mcl::bench::add_cpu("histogram", "cpp_reference", run, mcl::examples::histogram_reference, 3);
#if MCL_BENCH_LLVM
    mcl::bench::add_llvm("histogram", "mcl_perfect", run, histogram_llvm::histogram, 3);
#endif
    return mcl::bench::run_benchmarks(argc, argv);
}
