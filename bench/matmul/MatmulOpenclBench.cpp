// matmul on PoCL (device "pocl"): the generated OpenCL versions (mcl_perfect:
// matmul.mcl at x86_avx2; mcl_x86_avx2: the register-tiled refinement;
// mcl_x86_avx2_v2: its version with b packed into a scratch array; mcl_gpu_v1 and mcl_hopper: the GPU versions generated for hopper, run on
// PoCL through the glue's fallback), a hand-written naive OpenCL kernel of
// the same algorithm built on the same device (naive_opencl), and OpenBLAS
// cblas_sgemm. "kernel": the resident API (data on the device);
// "with_transfers": the host API. c += a * b, square n x n x n.
#include <vector>

#include "BenchOpenCl.h"
#include "MatmulData.h"
#include "matmul.h"
#include "matmul_gpu_v1.h"
#include "matmul_hopper.h"
#include "matmul_x86_avx2.h"
#include "matmul_x86_avx2_v2.h"

namespace {

using matmul_bench::Data;
using matmul_bench::check;
using matmul_bench::data;
using matmul_bench::finish;
using Arr = mcl::opencl::DeviceArray<float>;

// The resident API of a generated module (data stays on its device).
template <mcl::opencl::Device& (*Dev)(), void (*F)(int, int, int, Arr&, const Arr&, const Arr&)>
void kernel(benchmark::State& s) {
    int n = int(s.range(0));
    Data& d = data(n);
    size_t count = size_t(n) * n;
    Arr c(Dev(), count, d.c.data()), a(Dev(), count, d.a.data()), b(Dev(), count, d.b.data());
    std::vector<float> got(count);
    if (mcl::bench::timed(s, [&] { F(n, n, n, c, a, b); }, [&] { c.download(got.data()); return check(s, got, d); }))
        finish(s, n);
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

void naive_opencl(benchmark::State& s, bool resident) {
    int n = int(s.range(0));
    Data& d = data(n);
    size_t count = size_t(n) * n;
    mcl::opencl::Device& dev = matmul::device();
    mcl::bench::NaiveKernel k(dev, kNaive, "naive");
    Arr c(dev, count, d.c.data()), a(dev, count, d.a.data()), b(dev, count, d.b.data());
    std::vector<float> host_c = d.c;
    size_t wg = 8, global = (size_t(n) + wg - 1) / wg * wg;
    if (mcl::bench::timed_opencl(
            s, resident, [&] { c.upload(host_c.data()); a.upload(d.a.data()); b.upload(d.b.data()); },
            [&] { k.run(cl::NDRange(global, size_t(n)), cl::NDRange(wg, 1), n, n, n, c, a, b); },
            [&] { c.download(host_c.data()); }, [&] { return check(s, host_c, d); }))
        finish(s, n);
}

void naive_kernel(benchmark::State& s) { naive_opencl(s, true); }
void naive_with_transfers(benchmark::State& s) { naive_opencl(s, false); }

}  // namespace

// 512 for every variant, 2048 (the issue's size) for the refined version and OpenBLAS.
int main(int argc, char** argv) {
    using matmul_bench::add;
    using matmul_bench::host;
    add("matmul/pocl/openblas/kernel", host<matmul_bench::sgemm>, {512, 2048}, 3);
    add("matmul/pocl/mcl_perfect/kernel", kernel<matmul::device, matmul::resident::matmul>, {512}, 2);
    add("matmul/pocl/mcl_perfect/with_transfers", host<matmul::matmul>, {512}, 2);
    add("matmul/pocl/naive_opencl/kernel", naive_kernel, {512}, 2);
    add("matmul/pocl/naive_opencl/with_transfers", naive_with_transfers, {512}, 2);
    add("matmul/pocl/mcl_gpu_v1/kernel", kernel<matmul_gpu_v1::device, matmul_gpu_v1::resident::matmul>, {512}, 2);
    add("matmul/pocl/mcl_hopper/kernel", kernel<matmul_hopper::device, matmul_hopper::resident::matmul>, {512}, 2);
    add("matmul/pocl/mcl_x86_avx2/kernel", kernel<matmul_x86_avx2::device, matmul_x86_avx2::resident::matmul>,
        {512, 2048}, 1);
    add("matmul/pocl/mcl_x86_avx2/with_transfers", host<matmul_x86_avx2::matmul>, {2048}, 1);
    add("matmul/pocl/mcl_x86_avx2_v2/kernel",
        kernel<matmul_x86_avx2_v2::device, matmul_x86_avx2_v2::resident::matmul>, {512, 2048}, 1);
    add("matmul/pocl/mcl_x86_avx2_v2/with_transfers", host<matmul_x86_avx2_v2::matmul>, {2048}, 1);
    return mcl::bench::run_benchmarks(argc, argv);
}
