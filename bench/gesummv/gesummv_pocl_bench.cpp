// gesummv on PoCL (OpenCL on this CPU): the generated versions (perfect and
// x86 at x86_avx2, gpu at hopper, run through the glue's fallback to any
// OpenCL device), a hand-written naive OpenCL kernel on the same device,
// and the OpenBLAS-based reference (native, measured in the same run so the
// report can compare; named under "pocl" for that reason).
#include <vector>

#include "GesummvData.h"
#include "gesummv.h"
#include "gesummv_gpu.h"
#include "gesummv_x86.h"

namespace {

using gesummv_bench::kAlpha;
using gesummv_bench::kBeta;
using gesummv_bench::Problem;
using mcl::opencl::DeviceArray;

// The resident API of a generated module: data on `device` across calls.
template <typename Call>
void bench_kernel(benchmark::State& state, mcl::opencl::Device& device, Call call) {
    const Problem& p = gesummv_bench::problem();
    DeviceArray<float> y(device, p.n), a(device, p.a.size(), p.a.data()), b(device, p.b.size(), p.b.data()),
        x(device, p.x.size(), p.x.data());
    call(p.n, kAlpha, kBeta, y, a, b, x);
    std::vector<float> got(p.n);
    y.download(got.data());
    if (!gesummv_bench::verify(state, got.data(), p)) return;
    for (auto _ : state) call(p.n, kAlpha, kBeta, y, a, b, x);
    state.SetLabel(gesummv_bench::label(p.n));
    mcl::bench::report_gflops(state, gesummv_bench::flops(p.n));
}

// The host API: copies in and out on every call.
template <typename Call>
void bench_transfers(benchmark::State& state, Call call) {
    const Problem& p = gesummv_bench::problem();
    std::vector<float> y(p.n, 0.0f);
    call(p.n, kAlpha, kBeta, y.data(), p.a.data(), p.b.data(), p.x.data());
    if (!gesummv_bench::verify(state, y.data(), p)) return;
    for (auto _ : state) call(p.n, kAlpha, kBeta, y.data(), p.a.data(), p.b.data(), p.x.data());
    state.SetLabel(gesummv_bench::label(p.n));
    mcl::bench::report_gflops(state, gesummv_bench::flops(p.n));
}

// The naive OpenCL kernel: one work-item per row, the same algorithm as
// gesummv.mcl at perfect, built on the device of the generated module.
const char* const kNaiveSource = R"CL(
__kernel void gesummv_naive(int n, float alpha, float beta, __global float* y,
                            __global const float* a, __global const float* b,
                            __global const float* x) {
    int i = get_global_id(0);
    if (i >= n) return;
    float sumA = 0.0f;
    float sumB = 0.0f;
    for (int j = 0; j < n; j++) {
        sumA += a[i * n + j] * x[j];
        sumB += b[i * n + j] * x[j];
    }
    y[i] = alpha * sumA + beta * sumB;
}
)CL";

void naive(int n, float alpha, float beta, DeviceArray<float>& y, const DeviceArray<float>& a,
           const DeviceArray<float>& b, const DeviceArray<float>& x) {
    mcl::opencl::Device& device = gesummv::device();
    static cl::Kernel kernel(device.program("naive", kNaiveSource), "gesummv_naive");
    kernel.setArg(0, n);
    kernel.setArg(1, alpha);
    kernel.setArg(2, beta);
    kernel.setArg(3, y.buffer());
    kernel.setArg(4, a.buffer());
    kernel.setArg(5, b.buffer());
    kernel.setArg(6, x.buffer());
    int global = (n + 63) / 64 * 64;
    device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(64));
    device.queue().finish();
}

void naive_host(int n, float alpha, float beta, float* y, const float* a, const float* b, const float* x) {
    mcl::opencl::Device& device = gesummv::device();
    std::size_t nn = std::size_t(n) * n;
    DeviceArray<float> yd(device, n), ad(device, nn, a), bd(device, nn, b), xd(device, n, x);
    naive(n, alpha, beta, yd, ad, bd, xd);
    yd.download(y);
}

template <typename Call>
void reg_kernel(const char* name, mcl::opencl::Device& (*device)(), Call call) {
    benchmark::RegisterBenchmark(name, [device, call](benchmark::State& s) { bench_kernel(s, device(), call); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

template <typename Call>
void reg_transfers(const char* name, Call call) {
    benchmark::RegisterBenchmark(name, [call](benchmark::State& s) { bench_transfers(s, call); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
    reg_kernel("gesummv/pocl/mcl_perfect/kernel", &gesummv::device, &gesummv::resident::gesummv);
    reg_kernel("gesummv/pocl/mcl_x86/kernel", &gesummv_x86::device, &gesummv_x86::resident::gesummv);
    reg_kernel("gesummv/pocl/mcl_gpu/kernel", &gesummv_gpu::device, &gesummv_gpu::resident::gesummv);
    reg_kernel("gesummv/pocl/naive_opencl/kernel", &gesummv::device, &naive);
    benchmark::RegisterBenchmark("gesummv/pocl/openblas/kernel", gesummv_bench::bench_openblas)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    reg_transfers("gesummv/pocl/mcl_perfect/with_transfers", &gesummv::gesummv);
    reg_transfers("gesummv/pocl/mcl_x86/with_transfers", &gesummv_x86::gesummv);
    reg_transfers("gesummv/pocl/mcl_gpu/with_transfers", &gesummv_gpu::gesummv);
    reg_transfers("gesummv/pocl/naive_opencl/with_transfers", &naive_host);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
