// blackscholes on the GPU (see GpuBench.cu): the call and put prices of n
// European options (stock price 5..30, strike 1..100, 0.25..10 years, as
// bench/blackscholes), for the generated versions blackscholes,
// blackscholes_gpu and blackscholes_gpu_v2 (lib.math's native_ functions)
// and a naive kernel (the reference). GFLOPS count 64 flops an option (as
// bench/blackscholes/BlackscholesData.h);
// bandwidth-bound: GB/s count three inputs read and two outputs written
// (20 n bytes).
#include <string>
#include <vector>

#include "GpuBench.h"
#include "blackscholes.h"
#include "blackscholes_llvm.h"
#include "blackscholes_gpu.h"
#include "blackscholes_gpu_llvm.h"
#include "blackscholes_gpu_v2.h"
#include "blackscholes_gpu_v2_llvm.h"
#include "blackscholes_reference.h"

namespace gpu_bench {
namespace {

// The cumulative normal distribution as blackscholes.mcl computes it.
__device__ float naive_cnd(float d) {
    const float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    const float poly =
        k * (0.319381530f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
    const float c = 0.398942280401432678f * expf(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - c : c;
}

// One thread per option.
__global__ void naive_blackscholes(int n, float riskfree, float volatility, float* call, float* put,
                                   const float* price, const float* strike, const float* years) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= size_t(n)) return;
    const float s = price[i], x = strike[i], t = years[i];
    const float sqrt_t = sqrtf(t);
    const float d1 = (logf(s / x) + (riskfree + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
    const float d2 = d1 - volatility * sqrt_t;
    const float cnd_d1 = naive_cnd(d1), cnd_d2 = naive_cnd(d2);
    const float discounted = x * expf(-riskfree * t);
    call[i] = s * cnd_d1 - discounted * cnd_d2;
    put[i] = discounted * (1.0f - cnd_d2) - s * (1.0f - cnd_d1);
}

// The options on the host and the device, and the prices.
struct Blackscholes {
    int n;
    float riskfree = 0.02f, volatility = 0.30f;
    std::vector<float> price, strike, years;
    Array<float> dprice, dstrike, dyears, call, put;

    explicit Blackscholes(int n)
        : n(n), price(uniform_vector(n, 41, 5, 30)), strike(uniform_vector(n, 42, 1, 100)),
          years(uniform_vector(n, 43, 0.25f, 10)), dprice(device(), price.size(), price.data()),
          dstrike(device(), strike.size(), strike.data()), dyears(device(), years.size(), years.data()),
          call(device(), n), put(device(), n) {}

    void naive() {
        naive_blackscholes<<<blocks_for(n, 256), 256>>>(n, riskfree, volatility, call.data(), put.data(),
                                                        dprice.data(), dstrike.data(), dyears.data());
        launched("naive_blackscholes");
    }
};

std::string compare_prices(const std::vector<float>& call, const std::vector<float>& put,
                           const std::vector<float>& want_call, const std::vector<float>& want_put) {
    const std::string error = compare("callPrice", call, want_call, 1e-4, 1e-4);
    return error.empty() ? compare("putPrice", put, want_put, 1e-4, 1e-4) : error;
}

}  // namespace

void bench_blackscholes(const Sizes& sizes, const Libraries&, std::vector<Result>& results) {
    const int n = sizes.blackscholes;
    AppBench bench(results, "blackscholes", "n=" + std::to_string(n), 64.0 * n, 20.0 * n, "naive_cuda", 5);
    bench.crosscheck("naive_cuda", "n=10007", [&] {
        Blackscholes small(10007);
        small.naive();
        std::vector<float> call(small.n), put(small.n);
        mcl::examples::blackscholes_reference(small.n, small.riskfree, small.volatility, call.data(), put.data(),
                                              small.price.data(), small.strike.data(), small.years.data());
        return compare_prices(download(small.call), download(small.put), call, put);
    });

    Blackscholes b(n);
    b.naive();
    const std::vector<float> want_call = download(b.call), want_put = download(b.put);
    bench.outputs(
        [&] {
            poison(b.call);
            poison(b.put);
        },
                  [&] { return compare_prices(download(b.call), download(b.put), want_call, want_put); });
    bench.kernel("naive_cuda", [&] { b.naive(); });
    bench.kernel("mcl_perfect", [&] {
        blackscholes::resident::blackscholes(n, b.riskfree, b.volatility, b.call, b.put, b.dprice, b.dstrike, b.dyears);
    });
    bench.kernel("llvm_perfect", [&] {
        blackscholes_llvm::resident::blackscholes(n, b.riskfree, b.volatility, b.call, b.put, b.dprice, b.dstrike, b.dyears);
    });
    bench.kernel("mcl_gpu", [&] {
        blackscholes_gpu::resident::blackscholes(n, b.riskfree, b.volatility, b.call, b.put, b.dprice, b.dstrike,
                                                 b.dyears);
    });
    bench.kernel("llvm_gpu", [&] {
        blackscholes_gpu_llvm::resident::blackscholes(n, b.riskfree, b.volatility, b.call, b.put, b.dprice, b.dstrike,
                                                 b.dyears);
    });
    bench.kernel("mcl_gpu_v2", [&] {
        blackscholes_gpu_v2::resident::blackscholes(n, b.riskfree, b.volatility, b.call, b.put, b.dprice, b.dstrike,
                                                    b.dyears);
    });
    bench.kernel("llvm_gpu_v2", [&] {
        blackscholes_gpu_v2_llvm::resident::blackscholes(n, b.riskfree, b.volatility, b.call, b.put, b.dprice,
                                                         b.dstrike, b.dyears);
    });

    std::vector<float> call(n), put(n);
    const float* price = b.price.data();
    const float* strike = b.strike.data();
    const float* years = b.years.data();
    bench.with_transfers(
        {{"mcl_perfect",
          [&] {
              blackscholes::blackscholes(n, b.riskfree, b.volatility, call.data(), put.data(), price, strike, years);
          }},
         {"mcl_gpu",
          [&] {
              blackscholes_gpu::blackscholes(n, b.riskfree, b.volatility, call.data(), put.data(), price, strike,
                                             years);
          }}},
        [&] {
            call.assign(n, poison_value<float>());
            put.assign(n, poison_value<float>());
        },
        [&] { return compare_prices(call, put, want_call, want_put); });
}

}  // namespace gpu_bench
