// blackscholes on PoCL (device "pocl"): the generated versions (mcl_perfect at
// x86_avx2, mcl_gpu generated for hopper) and a hand-written naive OpenCL
// kernel ("naive_opencl", one work-item per option), each as "kernel"
// (resident data) and "with_transfers" (host API). Flop count: see
// BlackscholesData.h. Verified once against blackscholes_reference.h.
#include "BenchOpenCl.h"
#include "BlackscholesData.h"
#include "blackscholes.h"
#include "blackscholes_gpu.h"

namespace {

using bs::N;
using Arr = mcl::opencl::DeviceArray<float>;
using Host = decltype(&blackscholes::blackscholes);
using Res = decltype(&blackscholes::resident::blackscholes);

// A generated module: its resident API `res` or its host API `host`.
void run_generated(benchmark::State& state, mcl::opencl::Device& device, Host host, Res res, bool resident) {
    const bs::Data& d = bs::data();
    std::vector<float> call(N), put(N);
    auto ok = [&] { return bs::check(state, call, put); };
    bool verified;
    if (resident) {
        Arr dp(device, N, d.price.data()), ds(device, N, d.strike.data()), dy(device, N, d.years.data());
        Arr dc(device, N), dq(device, N);
        verified = mcl::bench::timed(
            state, [&] { res(N, bs::RISKFREE, bs::VOLATILITY, dc, dq, dp, ds, dy); },
            [&] { dc.download(call.data()); dq.download(put.data()); return ok(); });
    } else {
        auto once = [&] {
            host(N, bs::RISKFREE, bs::VOLATILITY, call.data(), put.data(), d.price.data(), d.strike.data(),
                 d.years.data());
        };
        verified = mcl::bench::timed(state, once, ok);
    }
    if (verified) bs::finish(state);
}

const char* naive_source = R"CL(
float cnd(float d) {
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float poly = k * (0.319381530f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
    float c = 0.398942280401432678f * exp(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - c : c;
}
__kernel void naive(int n, float r, float v, __global float* call, __global float* put,
                    __global const float* price, __global const float* strike, __global const float* years) {
    int i = get_global_id(0);
    if (i >= n) return;
    float s = price[i], x = strike[i], t = years[i];
    float sqrtT = sqrt(t);
    float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sqrtT);
    float d2 = d1 - v * sqrtT;
    float c1 = cnd(d1), c2 = cnd(d2);
    float disc = x * exp(-r * t);
    call[i] = s * c1 - disc * c2;
    put[i] = disc * (1.0f - c2) - s * (1.0f - c1);
}
)CL";

void naive_opencl(benchmark::State& state, bool resident) {
    const bs::Data& d = bs::data();
    mcl::opencl::Device& device = blackscholes::device();
    mcl::bench::NaiveKernel kernel(device, naive_source, "naive");
    Arr dp(device, N, d.price.data()), ds(device, N, d.strike.data()), dy(device, N, d.years.data());
    Arr dc(device, N), dq(device, N);
    std::vector<float> call(N), put(N);
    if (mcl::bench::timed_opencl(
            state, resident,
            [&] { dp.upload(d.price.data()); ds.upload(d.strike.data()); dy.upload(d.years.data()); },
            [&] { kernel.run(cl::NDRange(N), cl::NullRange, N, bs::RISKFREE, bs::VOLATILITY, dc, dq, dp, ds, dy); },
            [&] { dc.download(call.data()); dq.download(put.data()); },
            [&] { return bs::check(state, call, put); }))
        bs::finish(state);
}

}  // namespace

int main(int argc, char** argv) {
    bs::data();
    using mcl::bench::generated;
    mcl::bench::add_opencl("blackscholes",
                           {generated("mcl_perfect", run_generated, blackscholes::device, blackscholes::blackscholes,
                                      blackscholes::resident::blackscholes),
                            generated("mcl_gpu", run_generated, blackscholes_gpu::device,
                                      blackscholes_gpu::blackscholes, blackscholes_gpu::resident::blackscholes),
                            {"naive_opencl", naive_opencl}},
                           3);
    return mcl::bench::run_benchmarks(argc, argv);
}
