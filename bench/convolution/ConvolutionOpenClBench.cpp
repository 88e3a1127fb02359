// convolution on PoCL (device "pocl"): the generated versions (mcl_perfect at
// x86_avx2, mcl_x86, mcl_gpu generated for hopper) and a hand-written naive
// OpenCL kernel ("naive_opencl", one work-item per output), each as
// "kernel" (resident data) and "with_transfers" (host API). GFLOPS count
// 2 * fh * fw flops per output. Verified once against convolution_reference.h.
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "convolution.h"
#include "convolution_gpu.h"
#include "convolution_reference.h"
#include "convolution_x86.h"

namespace {

constexpr int H = 2048, W = 2048, FH = 9, FW = 9;
constexpr size_t ASIZE = size_t(H + FH - 1) * (W + FW - 1), BSIZE = size_t(H) * W, FSIZE = FH * FW;

struct Data {
    std::vector<float> a, f, want;
    Data() : a(ASIZE), f(FSIZE), want(BSIZE) {
        unsigned s = 12345;
        auto rnd = [&s] { s = s * 1664525u + 1013904223u; return float(s >> 8) / float(1 << 24) * 2.0f - 1.0f; };
        for (float& x : a) x = rnd();
        for (float& x : f) x = rnd();
        mcl::examples::convolution_reference(H, W, FH, FW, want.data(), a.data(), f.data());
    }
};
const Data& data() {
    static Data d;
    return d;
}

void finish(benchmark::State& state) {
    state.SetLabel("h=" + std::to_string(H) + ",w=" + std::to_string(W) + ",fh=" + std::to_string(FH) +
                   ",fw=" + std::to_string(FW));
    mcl::bench::report_gflops(state, 2.0 * FH * FW * double(BSIZE));
}

bool check(benchmark::State& state, const std::vector<float>& b) {
    return mcl::bench::verify(state, b.data(), data().want.data(), BSIZE, 1e-5, 1e-4);
}

// Fn: the host API of a generated module; Res: its resident API; Dev: its device().
template <typename Host, typename Res>
void run_generated(benchmark::State& state, mcl::opencl::Device& device, Host host, Res res, bool resident) {
    const Data& d = data();
    std::vector<float> b(BSIZE);
    if (resident) {
        mcl::opencl::DeviceArray<float> da(device, ASIZE, d.a.data()), df(device, FSIZE, d.f.data()), db(device, BSIZE);
        res(H, W, FH, FW, db, da, df);
        db.download(b.data());
        if (!check(state, b)) return;
        for (auto _ : state) res(H, W, FH, FW, db, da, df);
    } else {
        host(H, W, FH, FW, b.data(), d.a.data(), d.f.data());
        if (!check(state, b)) return;
        for (auto _ : state) host(H, W, FH, FW, b.data(), d.a.data(), d.f.data());
    }
    finish(state);
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
    cl::Kernel kernel(device.program("naive", naive_source), "naive");
    mcl::opencl::DeviceArray<float> da(device, ASIZE, d.a.data()), df(device, FSIZE, d.f.data()), db(device, BSIZE);
    std::vector<float> b(BSIZE);
    auto launch = [&] {
        kernel.setArg(0, H); kernel.setArg(1, W); kernel.setArg(2, FH); kernel.setArg(3, FW);
        kernel.setArg(4, db.buffer()); kernel.setArg(5, da.buffer()); kernel.setArg(6, df.buffer());
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(W, H), cl::NullRange);
        device.queue().finish();
    };
    launch();
    db.download(b.data());
    if (!check(state, b)) return;
    for (auto _ : state) {
        if (resident) {
            launch();
        } else {
            da.upload(d.a.data());
            df.upload(d.f.data());
            launch();
            db.download(b.data());
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
            benchmark::RegisterBenchmark(("convolution/pocl/" + variant + "/" + what).c_str(), fn)
                ->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);
        };
        reg("mcl_perfect", [resident](benchmark::State& s) {
            run_generated(s, convolution::device(), convolution::convolution, convolution::resident::convolution, resident);
        });
        reg("mcl_x86", [resident](benchmark::State& s) {
            run_generated(s, convolution_x86::device(), convolution_x86::convolution,
                          convolution_x86::resident::convolution, resident);
        });
        reg("mcl_gpu", [resident](benchmark::State& s) {
            run_generated(s, convolution_gpu::device(), convolution_gpu::convolution,
                          convolution_gpu::resident::convolution, resident);
        });
        reg("naive_opencl", [resident](benchmark::State& s) { naive_opencl(s, resident); });
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
