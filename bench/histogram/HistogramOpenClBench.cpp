// histogram on PoCL (device "pocl"): the generated versions (mcl_perfect at
// x86_avx2, mcl_gpu generated for hopper) and a hand-written naive OpenCL
// kernel ("naive_opencl", one work-item per value, a global atomic each),
// each as "kernel" (resident data) and "with_transfers" (host API). GB/s
// count the bytes of input read (4 * n). Verified once against
// histogram_reference.h.
#include <vector>

#include "BenchOpenCl.h"
#include "HistogramData.h"
#include "histogram.h"
#include "histogram_gpu.h"

namespace {

using namespace hist;
using Arr = mcl::opencl::DeviceArray<int>;
using Host = decltype(&histogram::histogram);
using Res = decltype(&histogram::resident::histogram);

// A generated module: its resident API `res` or its host API `host`.
void run_generated(benchmark::State& state, mcl::opencl::Device& device, Host host, Res res, bool resident) {
    const Data& d = data();
    std::vector<int> hist(256, 0);
    auto ok = [&] { return check(state, hist); };
    bool verified;
    if (resident) {
        Arr dv(device, N, d.values.data()), dh(device, 256, hist.data());
        verified = mcl::bench::timed(state, [&] { res(N, dh, dv); },  // keeps adding to the counts
                                     [&] { dh.download(hist.data()); return ok(); });
    } else {
        verified = mcl::bench::timed(state, [&] { host(N, hist.data(), d.values.data()); }, ok);
    }
    if (verified) finish(state);
}

const char* naive_source = R"CL(
__kernel void naive(int n, __global int* hist, __global const int* values) {
    int i = get_global_id(0);
    if (i >= n) return;
    int v = values[i];
    if (v >= 0 && v < 256) atomic_add(&hist[v], 1);
}
)CL";

void naive_opencl(benchmark::State& state, bool resident) {
    const Data& d = data();
    mcl::opencl::Device& device = histogram::device();
    mcl::bench::NaiveKernel kernel(device, naive_source, "naive");
    std::vector<int> hist(256, 0);
    Arr dv(device, N, d.values.data()), dh(device, 256, hist.data());
    if (mcl::bench::timed_opencl(
            state, resident, [&] { dv.upload(d.values.data()); dh.upload(hist.data()); },
            [&] { kernel.run(cl::NDRange(N), cl::NullRange, N, dh, dv); }, [&] { dh.download(hist.data()); },
            [&] { return check(state, hist); }))
        finish(state);
}

}  // namespace

int main(int argc, char** argv) {
    data();
    using mcl::bench::generated;
    mcl::bench::add_opencl("histogram",
                           {generated("mcl_perfect", run_generated, histogram::device, histogram::histogram,
                                      histogram::resident::histogram),
                            generated("mcl_gpu", run_generated, histogram_gpu::device, histogram_gpu::histogram,
                                      histogram_gpu::resident::histogram),
                            {"naive_opencl", naive_opencl}},
                           3);
    return mcl::bench::run_benchmarks(argc, argv);
}
