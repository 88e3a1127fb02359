// convolution on the GPU (see GpuBench.cu): b (h x w) = the mean of the
// products of an fh x fw filter with the windows of a ((h + fh - 1) x
// (w + fw - 1)), h = w, fh = fw (9 x 9 as bench/convolution), for the
// generated versions convolution and convolution_gpu and a naive kernel
// (the reference). Compute-bound: GFLOPS count 2 fh fw flops an output.
#include <string>
#include <vector>

#include "GpuBench.h"
#include "convolution.h"
#include "convolution_llvm.h"
#include "convolution_gpu.h"
#include "convolution_gpu_llvm.h"
#include "convolution_reference.h"

namespace gpu_bench {
namespace {

// One thread per element of b.
__global__ void naive_convolution(int h, int w, int fh, int fw, float* b, const float* a, const float* f) {
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= h || j >= w) return;
    const size_t aw = size_t(w) + fw - 1;  // row length of a
    float sum = 0;
    for (int y = 0; y < fh; ++y)
        for (int x = 0; x < fw; ++x) sum += f[y * fw + x] * a[(size_t(i) + y) * aw + j + x];
    b[size_t(i) * w + j] = sum / float(fh * fw);
}

// The image and filter on the host and the device, and b.
struct Convolution {
    int h, w, fh, fw;
    std::vector<float> a, f;
    Array<float> da, df, b;

    Convolution(int h, int w, int fh, int fw)
        : h(h), w(w), fh(fh), fw(fw), a(uniform_vector((size_t(h) + fh - 1) * (size_t(w) + fw - 1), 51, -1, 1)),
          f(uniform_vector(size_t(fh) * fw, 52, -1, 1)), da(device(), a.size(), a.data()),
          df(device(), f.size(), f.data()), b(device(), size_t(h) * w) {}

    void naive() {
        naive_convolution<<<dim3(blocks_for(w, 32), blocks_for(h, 8)), dim3(32, 8)>>>(h, w, fh, fw, b.data(),
                                                                                       da.data(), df.data());
        launched("naive_convolution");
    }
};

}  // namespace

void bench_convolution(const Sizes& sizes, const Libraries&, std::vector<Result>& results) {
    const int n = sizes.convolution, k = sizes.filter;
    const std::string label = "h=" + std::to_string(n) + ",w=" + std::to_string(n) + ",fh=" + std::to_string(k) +
                              ",fw=" + std::to_string(k);
    AppBench bench(results, "convolution", label, 2.0 * k * k * double(n) * n, 0, "naive_cuda", 5);
    bench.crosscheck("naive_cuda", "h=37,w=53,fh=5,fw=3", [&] {
        Convolution small(37, 53, 5, 3);
        small.naive();
        std::vector<float> want(small.b.size());
        mcl::examples::convolution_reference(small.h, small.w, small.fh, small.fw, want.data(), small.a.data(),
                                             small.f.data());
        return compare("b", download(small.b), want, 1e-5, 1e-4);
    });

    Convolution c(n, n, k, k);
    c.naive();
    const std::vector<float> want = download(c.b);
    bench.outputs([&] { poison(c.b); }, [&] { return compare("b", download(c.b), want, 1e-5, 1e-4); });
    bench.kernel("naive_cuda", [&] { c.naive(); });
    bench.kernel("mcl_perfect", [&] { convolution::resident::convolution(n, n, k, k, c.b, c.da, c.df); });
    bench.kernel("llvm_perfect", [&] { convolution_llvm::resident::convolution(n, n, k, k, c.b, c.da, c.df); });
    bench.kernel("mcl_gpu", [&] { convolution_gpu::resident::convolution(n, n, k, k, c.b, c.da, c.df); });
    bench.kernel("llvm_gpu", [&] { convolution_gpu_llvm::resident::convolution(n, n, k, k, c.b, c.da, c.df); });

    std::vector<float> b(c.b.size());
    bench.with_transfers(
        {{"mcl_perfect", [&] { convolution::convolution(n, n, k, k, b.data(), c.a.data(), c.f.data()); }},
         {"mcl_gpu", [&] { convolution_gpu::convolution(n, n, k, k, b.data(), c.a.data(), c.f.data()); }}},
        [&] { b.assign(b.size(), poison_value<float>()); }, [&] { return compare("b", b, want, 1e-5, 1e-4); });
}

}  // namespace gpu_bench
