// histogram on PoCL (device "pocl"): the generated versions (mcl_perfect at
// x86_avx2, mcl_gpu generated for hopper) and a hand-written naive OpenCL
// kernel ("naive_opencl", one work-item per value, a global atomic each),
// each as "kernel" (resident data) and "with_transfers" (host API). GB/s
// count the bytes of input read (4 * n). Verified once against
// histogram_reference.h.
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "histogram.h"
#include "histogram_gpu.h"
#include "histogram_reference.h"

namespace {

constexpr int N = 1 << 24;

struct Data {
    std::vector<int> values, want;
    Data() : values(N), want(256, 0) {
        unsigned s = 777;
        for (int& v : values) { s = s * 1664525u + 1013904223u; v = int((s >> 8) % 296) - 20; }  // -20..275
        mcl::examples::histogram_reference(N, want.data(), values.data());
    }
};
const Data& data() {
    static Data d;
    return d;
}

void finish(benchmark::State& state) {
    state.SetLabel("n=" + std::to_string(N));
    mcl::bench::report_gbps(state, 4.0 * N);
}

bool check(benchmark::State& state, const std::vector<int>& hist) {
    return mcl::bench::verify(state, hist.data(), data().want.data(), 256, 0, 0);
}

template <typename Host, typename Res>
void run_generated(benchmark::State& state, mcl::opencl::Device& device, Host host, Res res, bool resident) {
    const Data& d = data();
    std::vector<int> hist(256, 0);
    if (resident) {
        mcl::opencl::DeviceArray<int> dv(device, N, d.values.data()), dh(device, 256, hist.data());
        res(N, dh, dv);
        dh.download(hist.data());
        if (!check(state, hist)) return;
        for (auto _ : state) res(N, dh, dv);  // keeps adding to the counts
    } else {
        host(N, hist.data(), d.values.data());
        if (!check(state, hist)) return;
        for (auto _ : state) host(N, hist.data(), d.values.data());
    }
    finish(state);
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
    cl::Kernel kernel(device.program("naive", naive_source), "naive");
    std::vector<int> hist(256, 0);
    mcl::opencl::DeviceArray<int> dv(device, N, d.values.data()), dh(device, 256, hist.data());
    auto launch = [&] {
        kernel.setArg(0, N); kernel.setArg(1, dh.buffer()); kernel.setArg(2, dv.buffer());
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(N), cl::NullRange);
        device.queue().finish();
    };
    launch();
    dh.download(hist.data());
    if (!check(state, hist)) return;
    for (auto _ : state) {
        if (resident) {
            launch();
        } else {
            dv.upload(d.values.data());
            dh.upload(hist.data());
            launch();
            dh.download(hist.data());
        }
    }
    finish(state);
}

}  // namespace

int main(int argc, char** argv) {
    data();
    for (bool resident : {true, false}) {
        const std::string what = resident ? "kernel" : "with_transfers";
        auto reg = [&](const std::string& variant, auto fn) {
            benchmark::RegisterBenchmark(("histogram/pocl/" + variant + "/" + what).c_str(), fn)
                ->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);
        };
        reg("mcl_perfect", [resident](benchmark::State& s) {
            run_generated(s, histogram::device(), histogram::histogram, histogram::resident::histogram, resident);
        });
        reg("mcl_gpu", [resident](benchmark::State& s) {
            run_generated(s, histogram_gpu::device(), histogram_gpu::histogram, histogram_gpu::resident::histogram,
                          resident);
        });
        reg("naive_opencl", [resident](benchmark::State& s) { naive_opencl(s, resident); });
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
