// convolution on this CPU with the generated C++ (OpenMP) backend (device
// "cpu"): mcl_perfect and mcl_x86 (the cache-blocked CPU version) against the
// plain C++ reference ("cpp_reference": convolution_reference.h at -O3, one
// thread). GFLOPS count 2 * fh * fw flops per output. Verified once against
// the reference. Compiled with MCL_BENCH_LLVM (convolution_llvm_bench), also
// each version through the llvm backend (device "llvm", modules renamed
// <version>_llvm), same iteration counts.
#include <vector>

#include "ConvolutionData.h"
#include "convolution.h"
#include "convolution_x86.h"
#if MCL_BENCH_LLVM
#include "convolution_llvm.h"
#include "convolution_x86_llvm.h"
#endif

namespace {

using namespace conv;

void run(benchmark::State& state, decltype(&convolution::convolution) fn) {
    const Data& d = data();
    std::vector<float> b(BSIZE);
    auto once = [&] {
        fn(H, W, FH, FW, b.data(), d.a.data(), d.f.data());
        benchmark::DoNotOptimize(b.data());
    };
    if (mcl::bench::timed(state, once, [&] { return check(state, b); })) finish(state);
}

}  // namespace

int main(int argc, char** argv) {
    data();
    mcl::bench::add_cpu("convolution", "mcl_perfect", run, convolution::convolution, 3);
    mcl::bench::add_cpu("convolution", "mcl_x86", run, convolution_x86::convolution, 3);
    mcl::bench::add_cpu("convolution", "cpp_reference", run, mcl::examples::convolution_reference, 3);
#if MCL_BENCH_LLVM
    mcl::bench::add_llvm("convolution", "mcl_perfect", run, convolution_llvm::convolution, 3);
    mcl::bench::add_llvm("convolution", "mcl_x86", run, convolution_x86_llvm::convolution, 3);
#endif
    return mcl::bench::run_benchmarks(argc, argv);
}
