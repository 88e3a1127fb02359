// matmul on PoCL (device "pocl"): the generated OpenCL versions (mcl_perfect:
// matmul.mcl at x86_avx2; mcl_x86_avx2: the register-tiled refinement;
// mcl_gpu_v1 and mcl_hopper: the GPU versions generated for hopper, run on
// PoCL through the glue's fallback), a hand-written naive OpenCL kernel of
// the same algorithm built on the same device (naive_opencl), and OpenBLAS
// cblas_sgemm. "kernel": the resident API (data on the device);
// "with_transfers": the host API. c += a * b, square n x n x n.
#include <cblas.h>

#include <memory>
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "matmul.h"
#include "matmul_gpu_v1.h"
#include "matmul_hopper.h"
#include "matmul_x86_avx2.h"

namespace {

struct Data {
    int n;
    std::vector<float> a, b, c, want;  // want: c + a * b by OpenBLAS
    explicit Data(int n_) : n(n_), a(size_t(n_) * n_), b(size_t(n_) * n_), c(size_t(n_) * n_) {
        unsigned s = 12345;
        auto rnd = [&] { s = s * 1103515245u + 12345u; return float((s >> 8) & 0xffff) / 65536.0f - 0.5f; };
        for (float& x : a) x = rnd();
        for (float& x : b) x = rnd();
        for (float& x : c) x = rnd();
        want = c;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 1.0f,
                    want.data(), n);
    }
};

Data& data(int n) {
    static std::vector<std::unique_ptr<Data>> all;
    for (auto& d : all) if (d->n == n) return *d;
    all.push_back(std::make_unique<Data>(n));
    return *all.back();
}

double flops(int n) { return 2.0 * n * n * n; }
void label(benchmark::State& s, int n) { s.SetLabel("n=" + std::to_string(n)); }
bool check(benchmark::State& s, const std::vector<float>& got, const Data& d) {
    return mcl::bench::verify(s, got.data(), d.want.data(), got.size(), 1e-3, 1e-3);
}

// The host API of a generated module (copies in and out each call).
template <void (*F)(int, int, int, float*, const float*, const float*)>
void with_transfers(benchmark::State& s) {
    int n = int(s.range(0));
    Data& d = data(n);
    std::vector<float> c = d.c;
    F(n, n, n, c.data(), d.a.data(), d.b.data());
    if (!check(s, c, d)) return;
    for (auto _ : s) F(n, n, n, c.data(), d.a.data(), d.b.data());
    mcl::bench::report_gflops(s, flops(n));
    label(s, n);
}

// The resident API of a generated module (data stays on its device).
template <mcl::opencl::Device& (*Dev)(),
          void (*F)(int, int, int, mcl::opencl::DeviceArray<float>&, const mcl::opencl::DeviceArray<float>&,
                    const mcl::opencl::DeviceArray<float>&)>
void kernel(benchmark::State& s) {
    int n = int(s.range(0));
    Data& d = data(n);
    size_t count = size_t(n) * n;
    mcl::opencl::DeviceArray<float> c(Dev(), count, d.c.data()), a(Dev(), count, d.a.data()),
        b(Dev(), count, d.b.data());
    F(n, n, n, c, a, b);
    std::vector<float> got(count);
    c.download(got.data());
    if (!check(s, got, d)) return;
    for (auto _ : s) F(n, n, n, c, a, b);
    mcl::bench::report_gflops(s, flops(n));
    label(s, n);
}

// The hand-written naive kernel: one work-item per element of c, the same
// algorithm as matmul.mcl, built on the device the generated code uses.
const char* const kNaive = R"(
__kernel void naive(int n, int m, int p, __global float* c, __global const float* a, __global const float* b) {
    int i = get_global_id(1), j = get_global_id(0);
    if (i < n && j < m) {
        float sum = 0.0f;
        for (int k = 0; k < p; k++) sum += a[i * p + k] * b[k * m + j];
        c[i * m + j] += sum;
    }
})";

void naive_opencl(benchmark::State& s, bool transfers) {
    int n = int(s.range(0));
    Data& d = data(n);
    size_t count = size_t(n) * n;
    mcl::opencl::Device& dev = matmul::device();
    cl::Kernel k(dev.program("naive", kNaive), "naive");
    mcl::opencl::DeviceArray<float> c(dev, count, d.c.data()), a(dev, count, d.a.data()), b(dev, count, d.b.data());
    std::vector<float> host_c = d.c;
    auto run = [&] {
        if (transfers) {
            c.upload(host_c.data());
            a.upload(d.a.data());
            b.upload(d.b.data());
        }
        k.setArg(0, n); k.setArg(1, n); k.setArg(2, n);
        k.setArg(3, c.buffer()); k.setArg(4, a.buffer()); k.setArg(5, b.buffer());
        size_t wg = 8, global = (size_t(n) + wg - 1) / wg * wg;
        dev.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global, size_t(n)), cl::NDRange(wg, 1));
        if (transfers) c.download(host_c.data());
        dev.queue().finish();
    };
    run();
    std::vector<float> got(count);
    if (transfers) got = host_c; else c.download(got.data());
    if (!check(s, got, d)) return;
    for (auto _ : s) run();
    mcl::bench::report_gflops(s, flops(n));
    label(s, n);
}

void openblas(benchmark::State& s) {
    int n = int(s.range(0));
    Data& d = data(n);
    std::vector<float> c = d.c;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, d.a.data(), n, d.b.data(), n, 1.0f,
                c.data(), n);
    if (!check(s, c, d)) return;
    for (auto _ : s)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, d.a.data(), n, d.b.data(), n, 1.0f,
                    c.data(), n);
    mcl::bench::report_gflops(s, flops(n));
    label(s, n);
}

void add(const char* name, void (*fn)(benchmark::State&), std::vector<int> sizes, int iterations) {
    auto* b = benchmark::RegisterBenchmark(name, fn);
    for (int n : sizes) b->Arg(n);
    b->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(iterations);
}

void naive_kernel(benchmark::State& s) { naive_opencl(s, false); }
void naive_with_transfers(benchmark::State& s) { naive_opencl(s, true); }

}  // namespace

// 512 for every variant, 2048 (the issue's size) for the refined version and OpenBLAS.
int main(int argc, char** argv) {
    add("matmul/pocl/openblas/kernel", openblas, {512, 2048}, 3);
    add("matmul/pocl/mcl_perfect/kernel", kernel<matmul::device, matmul::resident::matmul>, {512}, 2);
    add("matmul/pocl/mcl_perfect/with_transfers", with_transfers<matmul::matmul>, {512}, 2);
    add("matmul/pocl/naive_opencl/kernel", naive_kernel, {512}, 2);
    add("matmul/pocl/naive_opencl/with_transfers", naive_with_transfers, {512}, 2);
    add("matmul/pocl/mcl_gpu_v1/kernel", kernel<matmul_gpu_v1::device, matmul_gpu_v1::resident::matmul>, {512}, 2);
    add("matmul/pocl/mcl_hopper/kernel", kernel<matmul_hopper::device, matmul_hopper::resident::matmul>, {512}, 2);
    add("matmul/pocl/mcl_x86_avx2/kernel", kernel<matmul_x86_avx2::device, matmul_x86_avx2::resident::matmul>, {512, 2048}, 1);
    add("matmul/pocl/mcl_x86_avx2/with_transfers", with_transfers<matmul_x86_avx2::matmul>, {2048}, 1);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
