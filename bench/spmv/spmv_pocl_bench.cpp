// spmv on PoCL (OpenCL on this CPU): the generated versions (perfect and
// x86 at x86_avx2, gpu at hopper, run through the glue's fallback to any
// OpenCL device) and a hand-written naive OpenCL kernel (one work-item per
// row, CSR scalar) on the same device.
#include <vector>

#include "BenchOpenCl.h"
#include "SpmvData.h"
#include "spmv.h"
#include "spmv_gpu.h"
#include "spmv_x86.h"

namespace {

using mcl::opencl::DeviceArray;
using spmv_bench::Problem;
using Host = decltype(&spmv::spmv);
using Res = decltype(&spmv::resident::spmv);

// A version: its resident API `res` (data on `device` across calls) or its
// host API `host` (copies in and out on every call).
void run(benchmark::State& state, mcl::opencl::Device& device, Host host, Res res, bool resident) {
    const Problem& p = spmv_bench::problem();
    std::vector<float> got(p.nrows, 0.0f);
    auto ok = [&] { return spmv_bench::verify(state, got.data(), p); };
    bool verified;
    if (resident) {
        DeviceArray<float> y(device, p.nrows), vals(device, p.vals.size(), p.vals.data()),
            x(device, p.x.size(), p.x.data());
        DeviceArray<int> rowptr(device, p.rowptr.size(), p.rowptr.data()), cols(device, p.cols.size(), p.cols.data());
        verified = mcl::bench::timed(state, [&] { res(p.nrows, p.ncols, p.nnz, y, rowptr, cols, vals, x); },
                                     [&] { y.download(got.data()); return ok(); });
    } else {
        auto once = [&] {
            host(p.nrows, p.ncols, p.nnz, got.data(), p.rowptr.data(), p.cols.data(), p.vals.data(), p.x.data());
        };
        verified = mcl::bench::timed(state, once, ok);
    }
    if (!verified) return;
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

// The naive kernel in work-groups of `group` rows: 64, as one would write
// it, and 8, the work-group the generated code has at x86_avx2 (its vectors
// par_group: 8 AVX2 lanes), to tell the cost of the group size from that of
// translation and glue.
template <int group>
void naive(int nrows, int, int, DeviceArray<float>& y, const DeviceArray<int>& rowptr, const DeviceArray<int>& cols,
           const DeviceArray<float>& vals, const DeviceArray<float>& x) {
    static mcl::bench::NaiveKernel kernel(spmv::device(), kNaiveSource, "spmv_naive");
    kernel.run(cl::NDRange((nrows + group - 1) / group * group), cl::NDRange(group), nrows, y, rowptr, cols, vals, x);
}

template <int group>
void naive_host(int nrows, int ncols, int nnz, float* y, const int* rowptr, const int* cols, const float* vals,
                const float* x) {
    mcl::opencl::Device& device = spmv::device();
    DeviceArray<float> yd(device, nrows), vd(device, nnz, vals), xd(device, ncols, x);
    DeviceArray<int> rd(device, nrows + 1, rowptr), cd(device, nnz, cols);
    naive<group>(nrows, ncols, nnz, yd, rd, cd, vd, xd);
    yd.download(y);
}

}  // namespace

int main(int argc, char** argv) {
    using mcl::bench::generated;
    mcl::bench::add_opencl("spmv",
                           {generated("mcl_perfect", run, spmv::device, spmv::spmv, spmv::resident::spmv),
                            generated("mcl_x86", run, spmv_x86::device, spmv_x86::spmv, spmv_x86::resident::spmv),
                            generated("mcl_gpu", run, spmv_gpu::device, spmv_gpu::spmv, spmv_gpu::resident::spmv),
                            generated("naive_opencl", run, spmv::device, naive_host<64>, naive<64>),
                            generated("naive_opencl_wg8", run, spmv::device, naive_host<8>, naive<8>)},
                           0);
    return mcl::bench::run_benchmarks(argc, argv);
}
