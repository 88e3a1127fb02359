// blackscholes on this CPU with the generated C++ (OpenMP) backend (device
// "cpu"): mcl_perfect against the plain C++ reference ("cpp_reference":
// blackscholes_reference.h at -O3, one thread). Flop count: see
// BlackscholesData.h. Verified once against the reference. Compiled with
// MCL_BENCH_LLVM (blackscholes_llvm_bench), also through the llvm backend
// (device "llvm", module renamed blackscholes_llvm), same iteration count.
#include "BlackscholesData.h"
#include "blackscholes.h"
#if MCL_BENCH_LLVM
#include "blackscholes_llvm.h"
#endif

namespace {

void run(benchmark::State& state, decltype(&blackscholes::blackscholes) fn) {
    const bs::Data& d = bs::data();
    std::vector<float> call(bs::N), put(bs::N);
    auto once = [&] {
        fn(bs::N, bs::RISKFREE, bs::VOLATILITY, call.data(), put.data(), d.price.data(), d.strike.data(),
           d.years.data());
        benchmark::DoNotOptimize(call.data());
    };
    if (mcl::bench::timed(state, once, [&] { return bs::check(state, call, put); })) bs::finish(state);
}

}  // namespace

int main(int argc, char** argv) {
    bs::data();
    mcl::bench::add_cpu("blackscholes", "mcl_perfect", run, blackscholes::blackscholes, 3);
    mcl::bench::add_cpu("blackscholes", "cpp_reference", run, mcl::examples::blackscholes_reference, 3);
#if MCL_BENCH_LLVM
    mcl::bench::add_llvm("blackscholes", "mcl_perfect", run, blackscholes_llvm::blackscholes, 3);
#endif
    return mcl::bench::run_benchmarks(argc, argv);
}
