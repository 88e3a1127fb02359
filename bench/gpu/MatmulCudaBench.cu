// matmul on the GPU (see GpuBench.cu): c += a * b, square n x n x n, for the
// generated versions matmul, matmul_gpu_v1, matmul_hopper, matmul_hopper_v2
// matmul_hopper_v3, matmul_hopper_v4, matmul_hopper_v5 (through the llvm backend also with launch bounds for
// two resident blocks) and matmul_hopper_v6, cuBLAS SGEMM (the reference, FP32)
// and a naive kernel.
#include <string>
#include <vector>

#include "GpuBench.h"
#include "matmul.h"
#include "matmul_llvm.h"
#include "matmul_gpu_v1.h"
#include "matmul_gpu_v1_llvm.h"
#include "matmul_hopper.h"
#include "matmul_hopper_llvm.h"
#include "matmul_hopper_v2.h"
#include "matmul_hopper_v2_llvm.h"
#include "matmul_hopper_v3.h"
#include "matmul_hopper_v3_llvm.h"
#include "matmul_hopper_v4.h"
#include "matmul_hopper_v4_llvm.h"
#include "matmul_hopper_v5.h"
#include "matmul_hopper_v5_llvm.h"
#include "matmul_hopper_v5_llvm_2blocks.h"
#include "matmul_hopper_v6.h"
#include "matmul_hopper_v6_llvm.h"
#include "matmul_reference.h"

namespace gpu_bench {
namespace {

// One thread per element of c (row blockIdx.y).
__global__ void naive_matmul(int n, int m, int p, float* c, const float* a, const float* b) {
    const int i = blockIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || j >= m) return;
    float sum = 0;
    for (int k = 0; k < p; ++k) sum += a[size_t(i) * p + k] * b[size_t(k) * m + j];
    c[size_t(i) * m + j] += sum;
}

// c (n x m) += a (n x p) * b (p x m), row-major, on the host and the device.
struct Matmul {
    int n, m, p;
    std::vector<float> a, b, c0;
    Array<float> da, db, dc;

    Matmul(int n, int m, int p)
        : n(n), m(m), p(p), a(uniform_vector(size_t(n) * p, 1, -1, 1)), b(uniform_vector(size_t(p) * m, 2, -1, 1)),
          c0(uniform_vector(size_t(n) * m, 3, -1, 1)), da(device(), a.size(), a.data()),
          db(device(), b.size(), b.data()), dc(device(), c0.size(), c0.data()) {}

    void cublas(cublasHandle_t blas) {
        // Row-major c += a * b is column-major c^T += b^T a^T.
        const float one = 1;
        check(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, m, n, p, &one, db.data(), m, da.data(), p, &one, dc.data(),
                          m),
              "cublasSgemm");
    }

    void naive() {
        naive_matmul<<<dim3(blocks_for(m, 256), n), 256>>>(n, m, p, dc.data(), da.data(), db.data());
        launched("naive_matmul");
    }
};

}  // namespace

void bench_matmul(const Sizes& sizes, const Libraries& libs, std::vector<Result>& results) {
    const int n = sizes.matmul;
    AppBench bench(results, "matmul", "n=" + std::to_string(n), 2.0 * n * n * double(n), 0, "cublas", 3);
    bench.crosscheck("cublas", "n=67,m=45,p=83", [&] {
        Matmul small(67, 45, 83);
        small.cublas(libs.blas);
        std::vector<float> want = small.c0;
        mcl::examples::matmul_reference(small.n, small.m, small.p, want.data(), small.a.data(), small.b.data());
        return compare("c", download(small.dc), want, 1e-4, 1e-4);
    });

    Matmul mm(n, n, n);
    mm.cublas(libs.blas);
    const std::vector<float> want = download(mm.dc);
    bench.outputs([&] { mm.dc.upload(mm.c0.data()); },
                  [&] { return compare("c", download(mm.dc), want, 1e-3, 1e-3); });
    bench.kernel("cublas", [&] { mm.cublas(libs.blas); });
    bench.kernel("mcl_perfect", [&] { matmul::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("llvm_perfect", [&] { matmul_llvm::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("mcl_gpu_v1", [&] { matmul_gpu_v1::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("llvm_gpu_v1", [&] { matmul_gpu_v1_llvm::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("mcl_hopper", [&] { matmul_hopper::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("llvm_hopper", [&] { matmul_hopper_llvm::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("mcl_hopper_v2", [&] { matmul_hopper_v2::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("llvm_hopper_v2", [&] { matmul_hopper_v2_llvm::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("mcl_hopper_v3", [&] { matmul_hopper_v3::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("llvm_hopper_v3", [&] { matmul_hopper_v3_llvm::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("mcl_hopper_v4", [&] { matmul_hopper_v4::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("llvm_hopper_v4", [&] { matmul_hopper_v4_llvm::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("mcl_hopper_v5", [&] { matmul_hopper_v5::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("llvm_hopper_v5", [&] { matmul_hopper_v5_llvm::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    // The same PTX with launch bounds for two resident blocks (128 instead of 129 registers).
    bench.kernel("llvm_hopper_v5_2blocks",
                 [&] { matmul_hopper_v5_llvm_2blocks::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("mcl_hopper_v6", [&] { matmul_hopper_v6::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("llvm_hopper_v6", [&] { matmul_hopper_v6_llvm::resident::matmul(n, n, n, mm.dc, mm.da, mm.db); });
    bench.kernel("naive_cuda", [&] { mm.naive(); });

    std::vector<float> c(mm.c0.size());
    const float* a = mm.a.data();
    const float* b = mm.b.data();
    bench.with_transfers(
        {{"mcl_perfect", [&] { matmul::matmul(n, n, n, c.data(), a, b); }},
         {"mcl_gpu_v1", [&] { matmul_gpu_v1::matmul(n, n, n, c.data(), a, b); }},
         {"mcl_hopper", [&] { matmul_hopper::matmul(n, n, n, c.data(), a, b); }},
         {"mcl_hopper_v2", [&] { matmul_hopper_v2::matmul(n, n, n, c.data(), a, b); }},
         {"mcl_hopper_v3", [&] { matmul_hopper_v3::matmul(n, n, n, c.data(), a, b); }},
         {"mcl_hopper_v4", [&] { matmul_hopper_v4::matmul(n, n, n, c.data(), a, b); }},
         {"mcl_hopper_v5", [&] { matmul_hopper_v5::matmul(n, n, n, c.data(), a, b); }},
         {"mcl_hopper_v6", [&] { matmul_hopper_v6::matmul(n, n, n, c.data(), a, b); }}},
        [&] { c = mm.c0; }, [&] { return compare("c", c, want, 1e-3, 1e-3); });
}

}  // namespace gpu_bench
