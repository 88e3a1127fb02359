// spmv on PoCL (OpenCL on this CPU): the generated versions (perfect and
// x86 at x86_avx2, gpu at hopper, run through the glue's fallback to any
// OpenCL device) and a hand-written naive OpenCL kernel (one work-item per
// row, CSR scalar) on the same device.
#include <vector>

#include "SpmvData.h"
#include "spmv.h"
#include "spmv_gpu.h"
#include "spmv_x86.h"

namespace {

using mcl::opencl::DeviceArray;
using spmv_bench::Problem;

template <typename Call>
void bench_kernel(benchmark::State& state, mcl::opencl::Device& device, Call call) {
    const Problem& p = spmv_bench::problem();
    DeviceArray<float> y(device, p.nrows), vals(device, p.vals.size(), p.vals.data()),
        x(device, p.x.size(), p.x.data());
    DeviceArray<int> rowptr(device, p.rowptr.size(), p.rowptr.data()), cols(device, p.cols.size(), p.cols.data());
    call(p.nrows, p.ncols, p.nnz, y, rowptr, cols, vals, x);
    std::vector<float> got(p.nrows);
    y.download(got.data());
    if (!spmv_bench::verify(state, got.data(), p)) return;
    for (auto _ : state) call(p.nrows, p.ncols, p.nnz, y, rowptr, cols, vals, x);
    state.SetLabel(spmv_bench::label(p));
    mcl::bench::report_gflops(state, spmv_bench::flops(p));
}

template <typename Call>
void bench_transfers(benchmark::State& state, Call call) {
    const Problem& p = spmv_bench::problem();
    std::vector<float> y(p.nrows, 0.0f);
    auto once = [&] {
        call(p.nrows, p.ncols, p.nnz, y.data(), p.rowptr.data(), p.cols.data(), p.vals.data(), p.x.data());
    };
    once();
    if (!spmv_bench::verify(state, y.data(), p)) return;
    for (auto _ : state) once();
    state.SetLabel(spmv_bench::label(p));
    mcl::bench::report_gflops(state, spmv_bench::flops(p));
}

const char* const kNaiveSource = R"CL(
__kernel void spmv_naive(int nrows, __global float* y, __global const int* rowptr,
                         __global const int* cols, __global const float* vals,
                         __global const float* x) {
    int r = get_global_id(0);
    if (r >= nrows) return;
    float sum = 0.0f;
    for (int e = rowptr[r]; e < rowptr[r + 1]; e++) sum += vals[e] * x[cols[e]];
    y[r] = sum;
}
)CL";

void naive(int nrows, int, int, DeviceArray<float>& y, const DeviceArray<int>& rowptr, const DeviceArray<int>& cols,
           const DeviceArray<float>& vals, const DeviceArray<float>& x) {
    mcl::opencl::Device& device = spmv::device();
    static cl::Kernel kernel(device.program("naive", kNaiveSource), "spmv_naive");
    kernel.setArg(0, nrows);
    kernel.setArg(1, y.buffer());
    kernel.setArg(2, rowptr.buffer());
    kernel.setArg(3, cols.buffer());
    kernel.setArg(4, vals.buffer());
    kernel.setArg(5, x.buffer());
    int global = (nrows + 63) / 64 * 64;
    device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(64));
    device.queue().finish();
}

void naive_host(int nrows, int ncols, int nnz, float* y, const int* rowptr, const int* cols, const float* vals,
                const float* x) {
    mcl::opencl::Device& device = spmv::device();
    DeviceArray<float> yd(device, nrows), vd(device, nnz, vals), xd(device, ncols, x);
    DeviceArray<int> rd(device, nrows + 1, rowptr), cd(device, nnz, cols);
    naive(nrows, ncols, nnz, yd, rd, cd, vd, xd);
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
    reg_kernel("spmv/pocl/mcl_perfect/kernel", &spmv::device, &spmv::resident::spmv);
    reg_kernel("spmv/pocl/mcl_x86/kernel", &spmv_x86::device, &spmv_x86::resident::spmv);
    reg_kernel("spmv/pocl/mcl_gpu/kernel", &spmv_gpu::device, &spmv_gpu::resident::spmv);
    reg_kernel("spmv/pocl/naive_opencl/kernel", &spmv::device, &naive);
    reg_transfers("spmv/pocl/mcl_perfect/with_transfers", &spmv::spmv);
    reg_transfers("spmv/pocl/mcl_x86/with_transfers", &spmv_x86::spmv);
    reg_transfers("spmv/pocl/mcl_gpu/with_transfers", &spmv_gpu::spmv);
    reg_transfers("spmv/pocl/naive_opencl/with_transfers", &naive_host);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
