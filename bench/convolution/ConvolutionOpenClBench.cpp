// convolution on PoCL (device "pocl"): the generated versions (mcl_perfect at
// x86_avx2, mcl_x86, mcl_gpu generated for hopper) and a hand-written naive
// OpenCL kernel ("naive_opencl", one work-item per output), each as
// "kernel" (resident data) and "with_transfers" (host API). GFLOPS count
// 2 * fh * fw flops per output. Verified once against convolution_reference.h.
#include <vector>

#include "BenchOpenCl.h"
#include "ConvolutionData.h"
#include "convolution.h"
#include "convolution_gpu.h"
#include "convolution_x86.h"

namespace {

using namespace conv;
using Arr = mcl::opencl::DeviceArray<float>;
using Host = decltype(&convolution::convolution);
using Res = decltype(&convolution::resident::convolution);

// A generated module: its resident API `res` or its host API `host`.
void run_generated(benchmark::State& state, mcl::opencl::Device& device, Host host, Res res, bool resident) {
    const Data& d = data();
    std::vector<float> b(BSIZE);
    auto ok = [&] { return check(state, b); };
    bool verified;
    if (resident) {
        Arr da(device, ASIZE, d.a.data()), df(device, FSIZE, d.f.data()), db(device, BSIZE);
        verified = mcl::bench::timed(state, [&] { res(H, W, FH, FW, db, da, df); },
                                     [&] { db.download(b.data()); return ok(); });
    } else {
        verified = mcl::bench::timed(state, [&] { host(H, W, FH, FW, b.data(), d.a.data(), d.f.data()); }, ok);
    }
    if (verified) finish(state);
}

const char* naive_source = R"CL(
__kernel void naive(int h, int w, int fh, int fw, __global float* b, __global const float* a,
                    __global const float* f) {
    int j = get_global_id(0), i = get_global_id(1);
    if (i >= h || j >= w) return;
    int aw = w + fw - 1;
    float sum = 0.0f;
    for (int y = 0; y < fh; y++)
        for (int x = 0; x < fw; x++)
            sum += f[y * fw + x] * a[(i + y) * aw + (j + x)];
    b[i * w + j] = sum / (float)(fh * fw);
}
)CL";

// The naive kernel, built on the device of the generated perfect version.
void naive_opencl(benchmark::State& state, bool resident) {
    const Data& d = data();
    mcl::opencl::Device& device = convolution::device();
    mcl::bench::NaiveKernel kernel(device, naive_source, "naive");
    Arr da(device, ASIZE, d.a.data()), df(device, FSIZE, d.f.data()), db(device, BSIZE);
    std::vector<float> b(BSIZE);
    if (mcl::bench::timed_opencl(
            state, resident, [&] { da.upload(d.a.data()); df.upload(d.f.data()); },
            [&] { kernel.run(cl::NDRange(W, H), cl::NullRange, H, W, FH, FW, db, da, df); },
            [&] { db.download(b.data()); }, [&] { return check(state, b); }))
        finish(state);
}

}  // namespace

int main(int argc, char** argv) {
    data();
    using mcl::bench::generated;
    mcl::bench::add_opencl("convolution",
                           {generated("mcl_perfect", run_generated, convolution::device, convolution::convolution,
                                      convolution::resident::convolution),
                            generated("mcl_x86", run_generated, convolution_x86::device,
                                      convolution_x86::convolution, convolution_x86::resident::convolution),
                            generated("mcl_gpu", run_generated, convolution_gpu::device,
                                      convolution_gpu::convolution, convolution_gpu::resident::convolution),
                            {"naive_opencl", naive_opencl}},
                           3);
    return mcl::bench::run_benchmarks(argc, argv);
}
