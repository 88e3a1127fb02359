// spmv on the GPU (see GpuBench.cu): y = A x, A a square CSR matrix with 16
// to 32 nonzeros a row (24 on average) in distinct columns spread over the
// whole row (one in each of as many equal windows, sorted), a
// deterministic pseudo-random pattern, for the generated versions spmv,
// spmv_gpu and spmv_gpu_v2, cuSPARSE (cusparseSpMV, CSR,
// CUSPARSE_SPMV_CSR_ALG1, FP32: the reference) and a naive kernel. Bandwidth-bound: GB/s count vals and cols
// (8 nnz bytes), rowptr, x and y read or written once.
#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "GpuBench.h"
#include "spmv.h"
#include "spmv_llvm.h"
#include "spmv_gpu.h"
#include "spmv_gpu_llvm.h"
#include "spmv_gpu_v2.h"
#include "spmv_gpu_v2_llvm.h"
#include "spmv_reference.h"

namespace gpu_bench {
namespace {

// One thread per row.
__global__ void naive_spmv(int nrows, float* y, const int* rowptr, const int* cols, const float* vals,
                           const float* x) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows) return;
    float sum = 0;
    for (int e = rowptr[r]; e < rowptr[r + 1]; ++e) sum += vals[e] * x[cols[e]];
    y[r] = sum;
}

struct Csr {
    int nrows = 0, ncols = 0, nnz = 0;
    std::vector<int> rowptr, cols;
    std::vector<float> vals;
};

Csr random_csr(int nrows, int ncols) {
    if (ncols < 32) throw mcl::Error("spmv: rows of up to 32 distinct columns need at least 32 columns");
    Csr m;
    m.nrows = nrows;
    m.ncols = ncols;
    m.rowptr.resize(size_t(nrows) + 1);
    long long nnz = 0;
    for (int r = 0; r < nrows; ++r) {
        nnz += 16 + static_cast<long long>(hash(20, r) % 17);
        if (nnz > INT_MAX) throw mcl::Error("spmv: more than 2^31 - 1 nonzeros");
        m.rowptr[r + 1] = int(nnz);
    }
    m.nnz = int(nnz);
    m.cols.resize(m.nnz);
    m.vals.resize(m.nnz);
    parallel_for(nrows, [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
            const int first = m.rowptr[r], count = m.rowptr[r + 1] - first;
            // Column j of the row lies in window j of ncols / count columns from `start`: all distinct.
            const uint64_t window = uint64_t(ncols) / count, start = hash(21, r) % uint64_t(ncols);
            for (int j = 0; j < count; ++j) {
                const size_t e = size_t(first) + j;
                m.cols[e] = int((start + j * window + hash(22, e) % window) % uint64_t(ncols));
                m.vals[e] = uniform(23, e, -1, 1);
            }
            std::sort(m.cols.begin() + first, m.cols.begin() + first + count);
        }
    });
    return m;
}

// The matrix and x on the host and the device, and y.
struct Spmv {
    Csr a;
    std::vector<float> x;
    Array<int> rowptr, cols;
    Array<float> vals, dx, y;

    Spmv(int nrows, int ncols)
        : a(random_csr(nrows, ncols)), x(uniform_vector(ncols, 24, -1, 1)),
          rowptr(device(), a.rowptr.size(), a.rowptr.data()), cols(device(), a.cols.size(), a.cols.data()),
          vals(device(), a.vals.size(), a.vals.data()), dx(device(), x.size(), x.data()), y(device(), nrows) {}

    void naive() {
        naive_spmv<<<blocks_for(a.nrows, 256), 256>>>(a.nrows, y.data(), rowptr.data(), cols.data(), vals.data(),
                                                      dx.data());
        launched("naive_spmv");
    }
};

// y = A x with cuSPARSE's generic API, its descriptors and work buffer set
// up once.
class CusparseSpmv {
public:
    CusparseSpmv(cusparseHandle_t handle, Spmv& s) : handle_(handle) {
        try {
            check(cusparseCreateConstCsr(&a_, s.a.nrows, s.a.ncols, s.a.nnz, s.rowptr.data(), s.cols.data(),
                                         s.vals.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                  "cusparseCreateConstCsr");
            check(cusparseCreateConstDnVec(&x_, s.a.ncols, s.dx.data(), CUDA_R_32F), "cusparseCreateConstDnVec");
            check(cusparseCreateDnVec(&y_, s.a.nrows, s.y.data(), CUDA_R_32F), "cusparseCreateDnVec");
            size_t bytes = 0;
            check(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, a_, x_, &zero_, y_,
                                          CUDA_R_32F, CUSPARSE_SPMV_CSR_ALG1, &bytes),
                  "cusparseSpMV_bufferSize");
            check(cudaMalloc(&buffer_, std::max<size_t>(bytes, 1)), "cudaMalloc");
        } catch (...) {
            release();
            throw;
        }
    }
    ~CusparseSpmv() { release(); }
    CusparseSpmv(const CusparseSpmv&) = delete;
    CusparseSpmv& operator=(const CusparseSpmv&) = delete;

    void operator()() const {
        check(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, a_, x_, &zero_, y_, CUDA_R_32F,
                           CUSPARSE_SPMV_CSR_ALG1, buffer_),
              "cusparseSpMV");
    }

private:
    void release() {
        if (buffer_) cudaFree(buffer_);
        if (y_) cusparseDestroyDnVec(y_);
        if (x_) cusparseDestroyDnVec(x_);
        if (a_) cusparseDestroySpMat(a_);
    }

    cusparseHandle_t handle_;
    cusparseConstSpMatDescr_t a_ = nullptr;
    cusparseConstDnVecDescr_t x_ = nullptr;
    cusparseDnVecDescr_t y_ = nullptr;
    void* buffer_ = nullptr;
    const float one_ = 1, zero_ = 0;
};

}  // namespace

void bench_spmv(const Sizes& sizes, const Libraries& libs, std::vector<Result>& results) {
    Spmv s(sizes.spmv_rows, sizes.spmv_rows);
    const int nrows = s.a.nrows, ncols = s.a.ncols, nnz = s.a.nnz;
    AppBench bench(results, "spmv", "nrows=" + std::to_string(nrows) + " nnz=" + std::to_string(nnz), 2.0 * nnz,
                   4.0 * (2.0 * nnz + 2.0 * nrows + 1 + ncols), "cusparse", 5);
    bench.crosscheck("cusparse", "nrows=1000,ncols=777", [&] {
        Spmv small(1000, 777);
        const CusparseSpmv cusparse(libs.sparse, small);
        cusparse();
        std::vector<float> want(small.a.nrows);
        mcl::examples::spmv_reference(small.a.nrows, small.a.ncols, small.a.nnz, want.data(), small.a.rowptr.data(),
                                      small.a.cols.data(), small.a.vals.data(), small.x.data());
        return compare("y", download(small.y), want, 1e-5, 1e-4);
    });

    const CusparseSpmv cusparse(libs.sparse, s);
    poison(s.y);
    cusparse();
    const std::vector<float> want = download(s.y);
    bench.outputs([&] { poison(s.y); }, [&] { return compare("y", download(s.y), want, 1e-4, 1e-4); });
    bench.kernel("cusparse", [&] { cusparse(); });
    bench.kernel("mcl_perfect", [&] { spmv::resident::spmv(nrows, ncols, nnz, s.y, s.rowptr, s.cols, s.vals, s.dx); });
    bench.kernel("llvm_perfect", [&] { spmv_llvm::resident::spmv(nrows, ncols, nnz, s.y, s.rowptr, s.cols, s.vals, s.dx); });
    bench.kernel("mcl_gpu", [&] { spmv_gpu::resident::spmv(nrows, ncols, nnz, s.y, s.rowptr, s.cols, s.vals, s.dx); });
    bench.kernel("llvm_gpu", [&] { spmv_gpu_llvm::resident::spmv(nrows, ncols, nnz, s.y, s.rowptr, s.cols, s.vals, s.dx); });
    bench.kernel("mcl_gpu_v2", [&] { spmv_gpu_v2::resident::spmv(nrows, ncols, nnz, s.y, s.rowptr, s.cols, s.vals, s.dx); });
    bench.kernel("llvm_gpu_v2", [&] { spmv_gpu_v2_llvm::resident::spmv(nrows, ncols, nnz, s.y, s.rowptr, s.cols, s.vals, s.dx); });
    bench.kernel("naive_cuda", [&] { s.naive(); });

    std::vector<float> y(nrows);
    const int* rowptr = s.a.rowptr.data();
    const int* cols = s.a.cols.data();
    const float* vals = s.a.vals.data();
    const float* x = s.x.data();
    bench.with_transfers(
        {{"mcl_perfect", [&] { spmv::spmv(nrows, ncols, nnz, y.data(), rowptr, cols, vals, x); }},
         {"mcl_gpu", [&] { spmv_gpu::spmv(nrows, ncols, nnz, y.data(), rowptr, cols, vals, x); }},
         {"mcl_gpu_v2", [&] { spmv_gpu_v2::spmv(nrows, ncols, nnz, y.data(), rowptr, cols, vals, x); }}},
        [&] { y.assign(nrows, poison_value<float>()); }, [&] { return compare("y", y, want, 1e-4, 1e-4); });
}

}  // namespace gpu_bench
