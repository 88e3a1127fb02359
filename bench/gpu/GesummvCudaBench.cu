// gesummv on the GPU (see GpuBench.cu): y = alpha a x + beta b x with a, b
// of n x n, for the generated versions gesummv and gesummv_gpu, cuBLAS (two
// SGEMV and a SAXPY: the reference) and a naive kernel. Bandwidth-bound:
// GB/s count a and b read once (8 n^2 bytes) and x and y (8 n).
#include <string>
#include <vector>

#include "GpuBench.h"
#include "gesummv.h"
#include "gesummv_llvm.h"
#include "gesummv_gpu.h"
#include "gesummv_gpu_llvm.h"
#include "gesummv_reference.h"

namespace gpu_bench {
namespace {

// One thread per element of y.
__global__ void naive_gesummv(int n, float alpha, float beta, float* y, const float* a, const float* b,
                              const float* x) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sa = 0, sb = 0;
    for (int j = 0; j < n; ++j) {
        sa += a[size_t(i) * n + j] * x[j];
        sb += b[size_t(i) * n + j] * x[j];
    }
    y[i] = alpha * sa + beta * sb;
}

// The inputs on the host and the device, y and cuBLAS's temporary t.
struct Gesummv {
    int n;
    float alpha = 1.5f, beta = 0.5f;
    std::vector<float> a, b, x;
    Array<float> da, db, dx, dy, dt;

    explicit Gesummv(int n)
        : n(n), a(uniform_vector(size_t(n) * n, 11, -1, 1)), b(uniform_vector(size_t(n) * n, 12, -1, 1)),
          x(uniform_vector(n, 13, 0, 1)), da(device(), a.size(), a.data()), db(device(), b.size(), b.data()),
          dx(device(), x.size(), x.data()), dy(device(), n), dt(device(), n) {}

    void cublas(cublasHandle_t blas) {
        // Row-major a is column-major a^T: y = alpha a x, t = beta b x, y += t.
        const float zero = 0, one = 1;
        check(cublasSgemv(blas, CUBLAS_OP_T, n, n, &alpha, da.data(), n, dx.data(), 1, &zero, dy.data(), 1),
              "cublasSgemv");
        check(cublasSgemv(blas, CUBLAS_OP_T, n, n, &beta, db.data(), n, dx.data(), 1, &zero, dt.data(), 1),
              "cublasSgemv");
        check(cublasSaxpy(blas, n, &one, dt.data(), 1, dy.data(), 1), "cublasSaxpy");
    }

    void naive() {
        naive_gesummv<<<blocks_for(n, 256), 256>>>(n, alpha, beta, dy.data(), da.data(), db.data(), dx.data());
        launched("naive_gesummv");
    }
};

}  // namespace

void bench_gesummv(const Sizes& sizes, const Libraries& libs, std::vector<Result>& results) {
    const int n = sizes.gesummv;
    AppBench bench(results, "gesummv", "n=" + std::to_string(n), 4.0 * n * double(n),
                   4.0 * (2.0 * n * double(n) + 2.0 * n), "cublas", 5);
    bench.crosscheck("cublas", "n=300", [&] {
        Gesummv small(300);
        small.cublas(libs.blas);
        std::vector<float> want(small.n);
        mcl::examples::gesummv_reference(small.n, small.alpha, small.beta, want.data(), small.a.data(),
                                         small.b.data(), small.x.data());
        return compare("y", download(small.dy), want, 1e-4, 1e-4);
    });

    Gesummv g(n);
    g.cublas(libs.blas);
    const std::vector<float> want = download(g.dy);
    bench.outputs([&] { poison(g.dy); }, [&] { return compare("y", download(g.dy), want, 1e-3, 1e-3); });
    bench.kernel("cublas", [&] { g.cublas(libs.blas); });
    bench.kernel("mcl_perfect", [&] { gesummv::resident::gesummv(n, g.alpha, g.beta, g.dy, g.da, g.db, g.dx); });
    bench.kernel("llvm_perfect", [&] { gesummv_llvm::resident::gesummv(n, g.alpha, g.beta, g.dy, g.da, g.db, g.dx); });
    bench.kernel("mcl_gpu", [&] { gesummv_gpu::resident::gesummv(n, g.alpha, g.beta, g.dy, g.da, g.db, g.dx); });
    bench.kernel("llvm_gpu", [&] { gesummv_gpu_llvm::resident::gesummv(n, g.alpha, g.beta, g.dy, g.da, g.db, g.dx); });
    bench.kernel("naive_cuda", [&] { g.naive(); });

    std::vector<float> y(n);
    bench.with_transfers(
        {{"mcl_perfect", [&] { gesummv::gesummv(n, g.alpha, g.beta, y.data(), g.a.data(), g.b.data(), g.x.data()); }},
         {"mcl_gpu",
          [&] { gesummv_gpu::gesummv(n, g.alpha, g.beta, y.data(), g.a.data(), g.b.data(), g.x.data()); }}},
        [&] { y.assign(n, poison_value<float>()); }, [&] { return compare("y", y, want, 1e-3, 1e-3); });
}

}  // namespace gpu_bench
