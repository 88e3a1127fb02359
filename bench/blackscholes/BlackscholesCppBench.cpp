// blackscholes on this CPU with the generated C++ (OpenMP) backend (device
// "cpu"): mcl_perfect against the plain C++ reference ("cpp_reference":
// blackscholes_reference.h at -O3, one thread). Flop count: see
// BlackscholesData.h. Verified once against the reference.
#include "BlackscholesData.h"
#include "blackscholes.h"

namespace {

template <typename Fn>
void run(benchmark::State& state, Fn fn) {
    const bs::Data& d = bs::data();
    std::vector<float> call(bs::N), put(bs::N);
    auto go = [&] {
        fn(bs::N, bs::RISKFREE, bs::VOLATILITY, call.data(), put.data(), d.price.data(), d.strike.data(),
           d.years.data());
    };
    go();
    if (!bs::check(state, call, put)) return;
    for (auto _ : state) {
        go();
        benchmark::DoNotOptimize(call.data());
    }
    bs::finish(state);
}

}  // namespace

int main(int argc, char** argv) {
    bs::data();
    auto reg = [](const std::string& variant, auto fn) {
        benchmark::RegisterBenchmark(("blackscholes/cpu/" + variant + "/kernel").c_str(),
                                     [fn](benchmark::State& s) { run(s, fn); })
            ->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);
    };
    reg("mcl_perfect", blackscholes::blackscholes);
    reg("cpp_reference", mcl::examples::blackscholes_reference);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
