// histogram on the GPU (see GpuBench.cu): hist (256 buckets, starting from
// hist[v] = v: the kernels add to it) += the counts of n values, for the
// generated versions histogram, histogram_gpu, histogram_gpu_v2 and histogram_gpu_v3 and a naive kernel (one
// global atomic add per value: the reference). The values are skewed so
// that atomics contend: 63 in 64 are the product of two uniform bytes over
// 256 (bucket 0 gets 2.8% of them, bucket 254 almost none), 1 in 64 lies
// outside 0..255 (not counted). Results must be exact. Bandwidth-bound:
// GB/s count the values read once (4 n bytes) and hist.
#include <string>
#include <vector>

#include "GpuBench.h"
#include "histogram.h"
#include "histogram_llvm.h"
#include "histogram_gpu.h"
#include "histogram_gpu_llvm.h"
#include "histogram_gpu_v2.h"
#include "histogram_gpu_v2_llvm.h"
#include "histogram_gpu_v3.h"
#include "histogram_gpu_v3_llvm.h"
#include "histogram_reference.h"

namespace gpu_bench {
namespace {

constexpr int kBuckets = 256;

// One thread per value.
__global__ void naive_histogram(int n, int* hist, const int* values) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= size_t(n)) return;
    const int v = values[i];
    if (v >= 0 && v < kBuckets) atomicAdd(&hist[v], 1);
}

std::vector<int> skewed_values(int n) {
    std::vector<int> values(n);
    parallel_for(values.size(), [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
            const uint64_t h = hash(31, i);
            const int low = int((h >> 1) & 15);
            if ((h >> 58) == 0)
                values[i] = h & 1 ? -1 - low : kBuckets + low;
            else
                values[i] = int((((h >> 8) & 255) * ((h >> 16) & 255)) >> 8);
        }
    });
    return values;
}

std::vector<int> initial_hist() {
    std::vector<int> hist(kBuckets);
    for (int v = 0; v < kBuckets; ++v) hist[v] = v;
    return hist;
}

// The values on the host and the device, hist's initial and device values.
struct Histogram {
    int n;
    std::vector<int> values, hist0;
    Array<int> dvalues, dhist;

    explicit Histogram(int n)
        : n(n), values(skewed_values(n)), hist0(initial_hist()), dvalues(device(), values.size(), values.data()),
          dhist(device(), hist0.size(), hist0.data()) {}

    void naive() {
        naive_histogram<<<blocks_for(n, 256), 256>>>(n, dhist.data(), dvalues.data());
        launched("naive_histogram");
    }
};

}  // namespace

void bench_histogram(const Sizes& sizes, const Libraries&, std::vector<Result>& results) {
    const int n = sizes.histogram;
    AppBench bench(results, "histogram", "n=" + std::to_string(n), 0, 4.0 * n + 2.0 * 4 * kBuckets, "naive_cuda",
                   5);
    bench.crosscheck("naive_cuda", "n=100003", [&] {
        Histogram small(100003);
        small.naive();
        std::vector<int> want = small.hist0;
        mcl::examples::histogram_reference(small.n, want.data(), small.values.data());
        return compare("hist", download(small.dhist), want, 0, 0);
    });

    Histogram h(n);
    h.naive();
    const std::vector<int> want = download(h.dhist);
    bench.outputs([&] { h.dhist.upload(h.hist0.data()); },
                  [&] { return compare("hist", download(h.dhist), want, 0, 0); });
    bench.kernel("naive_cuda", [&] { h.naive(); });
    bench.kernel("mcl_perfect", [&] { histogram::resident::histogram(n, h.dhist, h.dvalues); });
    bench.kernel("llvm_perfect", [&] { histogram_llvm::resident::histogram(n, h.dhist, h.dvalues); });
    bench.kernel("mcl_gpu", [&] { histogram_gpu::resident::histogram(n, h.dhist, h.dvalues); });
    bench.kernel("llvm_gpu", [&] { histogram_gpu_llvm::resident::histogram(n, h.dhist, h.dvalues); });
    bench.kernel("mcl_gpu_v2", [&] { histogram_gpu_v2::resident::histogram(n, h.dhist, h.dvalues); });
    bench.kernel("llvm_gpu_v2", [&] { histogram_gpu_v2_llvm::resident::histogram(n, h.dhist, h.dvalues); });
    bench.kernel("mcl_gpu_v3", [&] { histogram_gpu_v3::resident::histogram(n, h.dhist, h.dvalues); });
    bench.kernel("llvm_gpu_v3", [&] { histogram_gpu_v3_llvm::resident::histogram(n, h.dhist, h.dvalues); });

    std::vector<int> hist(kBuckets);
    bench.with_transfers({{"mcl_perfect", [&] { histogram::histogram(n, hist.data(), h.values.data()); }},
                          {"mcl_gpu", [&] { histogram_gpu::histogram(n, hist.data(), h.values.data()); }},
                          {"mcl_gpu_v2", [&] { histogram_gpu_v2::histogram(n, hist.data(), h.values.data()); }},
                          {"mcl_gpu_v3", [&] { histogram_gpu_v3::histogram(n, hist.data(), h.values.data()); }}},
                         [&] { hist = h.hist0; }, [&] { return compare("hist", hist, want, 0, 0); });
}

}  // namespace gpu_bench
