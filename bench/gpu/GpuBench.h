// The harness of the GPU benchmarks (bench/gpu): sizes, error checks, input
// generation, verification and timing with CUDA events, shared by
// GpuBench.cu (main, copy bandwidth, output) and the <App>CudaBench.cu files
// (one per application of examples/). Every entry is named as in
// bench/BenchSupport.h, "<app>/cuda/<variant>/<what>", so that
// bench/report.py reads the JSON that GpuBench.cu writes.
//
// Every failure inside an application (a CUDA, cuBLAS or cuSPARSE error, an
// mcl::Error of the generated glue, a wrong result) becomes the error of
// one entry; the other entries and applications still run.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "GpuResults.h"
#include "mcl_cuda.h"  // mcl::Error and mcl::cuda::DeviceArray, beside every generated module

namespace gpu_bench {

template <typename T>
using Array = mcl::cuda::DeviceArray<T>;

// Throw mcl::Error naming `what` unless the call succeeded.
void check(cudaError_t status, const char* what);
void check(cublasStatus_t status, const char* what);
void check(cusparseStatus_t status, const char* what);

// The device of the generated glue (MCL_CUDA_DEVICE, else device 0).
mcl::cuda::Device& device();

// Problem sizes (defaults: a run of well under 90 s on an H100).
struct Sizes {
    int matmul = 4096;            // n = m = p
    int gesummv = 8192;           // n
    int spmv_rows = 1 << 22;      // square matrix, 16 to 32 nonzeros a row
    int histogram = 1 << 28;      // values
    int blackscholes = 1 << 26;   // options
    int convolution = 8192;       // h = w
    int filter = 9;               // fh = fw
    int copy_mib = 1024;          // MiB copied device to device
};

// The cuBLAS and cuSPARSE handles of the run (on the default stream).
struct Libraries {
    cublasHandle_t blas = nullptr;
    cusparseHandle_t sparse = nullptr;
};


// Runs fn(begin, end) over [0, n) split among the host's cores.
void parallel_for(size_t n, const std::function<void(size_t, size_t)>& fn);

// Deterministic pseudo-random numbers: a hash (splitmix64) of (stream, index).
inline uint64_t hash(uint64_t stream, uint64_t index) {
    uint64_t x = (stream << 40) + index + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
inline float uniform(uint64_t stream, uint64_t index, float lo, float hi) {
    return lo + (hi - lo) * (float(hash(stream, index) >> 40) * (1.0f / 16777216.0f));
}

// n floats uniform in [lo, hi), generated on all cores.
std::vector<float> uniform_vector(size_t n, uint64_t stream, float lo, float hi);

// Fills `a` with a value that no benchmark computes (bytes 0x7F: floats of
// 3.4e38, finite, so that a library's beta = 0 ignores them), before a call
// that must write all of it.
template <typename T>
void poison(Array<T>& a) {
    check(cudaMemset(a.data(), 0x7F, a.size() * sizeof(T)), "cudaMemset");
}

// What poison() writes, as a host value (for the host-pointer API's outputs).
template <typename T>
T poison_value() {
    T value;
    std::memset(&value, 0x7F, sizeof value);
    return value;
}

// Throws unless the last launch of a hand-written kernel was accepted.
void launched(const char* kernel);

// Blocks of `threads` for n threads, one dimension; throws past CUDA's limit.
unsigned blocks_for(size_t n, unsigned threads);

// "" when got and want agree within abs_tol + rel_tol * |want| everywhere
// (exact for 0, 0), else the first difference, named by `what`.
template <typename T>
std::string compare(const char* what, const std::vector<T>& got, const std::vector<T>& want, double abs_tol,
                    double rel_tol) {
    if (got.size() != want.size())
        return std::string(what) + ": " + std::to_string(got.size()) + " elements, reference " +
               std::to_string(want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        const double g = double(got[i]), w = double(want[i]);
        if (!(std::fabs(g - w) <= abs_tol + rel_tol * std::fabs(w))) {
            char text[200];
            std::snprintf(text, sizeof text, "%s: wrong result at %zu: %.9g, reference %.9g", what, i, g, w);
            return text;
        }
    }
    return "";
}

// The device array's contents on the host.
template <typename T>
std::vector<T> download(const Array<T>& a) {
    std::vector<T> host(a.size());
    a.download(host.data());
    return host;
}

// The entries of one application at one size: every entry is verified once
// (its first call, after `reset`), then timed as the best of `repetitions`
// calls, each after a reset that is not timed.
class AppBench {
public:
    // flops and bytes are per call (0: not reported); bytes is the minimum
    // the algorithm must move to and from device memory. `reference` is the
    // variant the stdout table compares with.
    AppBench(std::vector<Result>& results, std::string app, std::string label, double flops, double bytes,
             std::string reference, int repetitions);

    // Runs the GPU reference `variant` at a small size (`label`) against the
    // C++ reference header: `run` returns "" when they agree. A failure is
    // recorded as the error of "<app>/cuda/<variant>/crosscheck".
    void crosscheck(const std::string& variant, const std::string& label, const std::function<std::string()>& run);

    // How the resident kernels' outputs are restored before each call and
    // checked after the first ("" when right).
    void outputs(std::function<void()> reset, std::function<std::string()> check);

    // "<app>/cuda/<variant>/<what>": `call` on the data already on the
    // device (`what`: "kernel", or "bandwidth" for the copies).
    void kernel(const std::string& variant, const std::function<void()>& call, const std::string& what = "kernel");

    // One generated version's host-pointer API (copies in and out each call).
    struct HostVersion {
        std::string variant;
        std::function<void()> call;
    };
    // "<app>/cuda/<variant>/with_transfers" for the version among `versions`
    // whose kernel entry verified fastest; reset and check as in outputs().
    void with_transfers(const std::vector<HostVersion>& versions, const std::function<void()>& reset,
                        const std::function<std::string()>& check);

private:
    Result measure(const std::string& variant, const std::string& what, const std::function<void()>& reset,
                   const std::function<void()>& call, const std::function<std::string()>& check);

    std::vector<Result>& results_;
    std::string app_, label_, reference_;
    double flops_, bytes_;
    int repetitions_;
    std::function<void()> reset_;
    std::function<std::string()> check_;
};

// One application: runs its entries at `sizes` and appends them to results.
void bench_matmul(const Sizes& sizes, const Libraries& libs, std::vector<Result>& results);
void bench_gesummv(const Sizes& sizes, const Libraries& libs, std::vector<Result>& results);
void bench_spmv(const Sizes& sizes, const Libraries& libs, std::vector<Result>& results);
void bench_histogram(const Sizes& sizes, const Libraries& libs, std::vector<Result>& results);
void bench_blackscholes(const Sizes& sizes, const Libraries& libs, std::vector<Result>& results);
void bench_convolution(const Sizes& sizes, const Libraries& libs, std::vector<Result>& results);

}  // namespace gpu_bench
