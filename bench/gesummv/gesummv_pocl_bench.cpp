// gesummv on PoCL (OpenCL on this CPU): the generated versions (perfect and
// x86 at x86_avx2, gpu at hopper, run through the glue's fallback to any
// OpenCL device), a hand-written naive OpenCL kernel on the same device,
// and the OpenBLAS-based reference (native, measured in the same run so the
// report can compare; named under "pocl" for that reason).
#include <vector>

#include "BenchOpenCl.h"
#include "GesummvData.h"
#include "gesummv.h"
#include "gesummv_gpu.h"
#include "gesummv_x86.h"

namespace {

using gesummv_bench::kAlpha;
using gesummv_bench::kBeta;
using gesummv_bench::Problem;
using mcl::opencl::DeviceArray;
using Host = decltype(&gesummv::gesummv);
using Res = decltype(&gesummv::resident::gesummv);

// A version: its resident API `res` (data on `device` across calls) or its
// host API `host` (copies in and out on every call).
void run(benchmark::State& state, mcl::opencl::Device& device, Host host, Res res, bool resident) {
    const Problem& p = gesummv_bench::problem();
    std::vector<float> got(p.n, 0.0f);
    auto ok = [&] { return gesummv_bench::verify(state, got.data(), p); };
    bool verified;
    if (resident) {
        DeviceArray<float> y(device, p.n), a(device, p.a.size(), p.a.data()), b(device, p.b.size(), p.b.data()),
            x(device, p.x.size(), p.x.data());
        verified = mcl::bench::timed(state, [&] { res(p.n, kAlpha, kBeta, y, a, b, x); },
                                     [&] { y.download(got.data()); return ok(); });
    } else {
        verified = mcl::bench::timed(
            state, [&] { host(p.n, kAlpha, kBeta, got.data(), p.a.data(), p.b.data(), p.x.data()); }, ok);
    }
    if (!verified) return;
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
    static mcl::bench::NaiveKernel kernel(gesummv::device(), kNaiveSource, "gesummv_naive");
    kernel.run(cl::NDRange((n + 63) / 64 * 64), cl::NDRange(64), n, alpha, beta, y, a, b, x);
}

void naive_host(int n, float alpha, float beta, float* y, const float* a, const float* b, const float* x) {
    mcl::opencl::Device& device = gesummv::device();
    std::size_t nn = std::size_t(n) * n;
    DeviceArray<float> yd(device, n), ad(device, nn, a), bd(device, nn, b), xd(device, n, x);
    naive(n, alpha, beta, yd, ad, bd, xd);
    yd.download(y);
}

}  // namespace

int main(int argc, char** argv) {
    using mcl::bench::generated;
    const std::vector<mcl::bench::OpenClVersion> versions = {
        generated("mcl_perfect", run, gesummv::device, gesummv::gesummv, gesummv::resident::gesummv),
        generated("mcl_x86", run, gesummv_x86::device, gesummv_x86::gesummv, gesummv_x86::resident::gesummv),
        generated("mcl_gpu", run, gesummv_gpu::device, gesummv_gpu::gesummv, gesummv_gpu::resident::gesummv),
        generated("naive_opencl", run, gesummv::device, naive_host, naive)};
    mcl::bench::add_opencl("gesummv", versions, true, 0);
    mcl::bench::add("gesummv/pocl/openblas/kernel", gesummv_bench::bench_openblas);
    mcl::bench::add_opencl("gesummv", versions, false, 0);
    return mcl::bench::run_benchmarks(argc, argv);
}
