// The GPU benchmarks: the CUDA code that mclc generates for hopper from every
// version of the six applications of examples/ (matmul, gesummv, spmv,
// histogram, blackscholes, convolution; entries mcl_<version>), the PTX of
// the llvm backend for the same versions (llvm_<version>), against hand-written naive CUDA
// kernels of the same algorithms (one thread per output element) and, where
// a library computes the same thing, cuBLAS (matmul, gesummv; FP32, no
// tensor cores: pedantic math, TF32 disabled) and cuSPARSE (spmv: CSR,
// CUSPARSE_SPMV_CSR_ALG1, FP32), all measured in the same run. A
// device-to-device copy (cudaMemcpy and a copy kernel) gives the bandwidth
// that the bandwidth-bound kernels (gesummv, spmv, histogram, blackscholes)
// are compared with: their entries also report GB/s, the bytes the
// algorithm must move at least per call over the time.
//
// Every entry is verified before it is timed: against a GPU reference at
// the benchmark size (the library, else the naive kernel), which is itself
// first checked against the example's C++ reference header
// (examples/APP/APP_reference.h) at a small size. Histograms must be exact,
// floating results within a tolerance. A wrong result or an error thrown by
// one variant (an mcl::Error of the glue, a CUDA or library error) is that
// entry's error_occurred; the other entries still run. Times are the best
// of a few calls, with CUDA events: `kernel` on data already on the device
// (the resident API), and per application one `with_transfers` entry, the
// host-pointer API of the generated version whose kernel was fastest.
//
// A GPU machine has nvcc, cuBLAS and cuSPARSE but not Google Benchmark, so
// this program writes Google Benchmark's JSON itself (after every
// application, so that a run cut short keeps what it measured), with the
// names of bench/BenchSupport.h, for bench/report.py, and prints a table as
// it goes: time, GFLOPS, GB/s, GB/s as a fraction of the best copy
// bandwidth, and "vs ref", the reference entry's time over this one's (above
// 1: faster than the library or naive kernel).
//   gpu_bench OUT.json [matmul_size [gesummv_size]] [--quick] [--apps=A,B]
//             [--matmul=N] [--gesummv=N] [--spmv=ROWS] [--histogram=N]
//             [--blackscholes=N] [--convolution=N] [--filter=K] [--copy-mib=M]
// --quick: small sizes (a correctness pass of seconds); the other options
// override single sizes (defaults in GpuBench.h's Sizes); --apps runs only
// the named applications (copy, matmul, gesummv, spmv, histogram,
// blackscholes, convolution). Exit status 1 when any entry failed.
// Built by bench/gpu/run.sh from the glue that bench/gpu/prepare.sh generates.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "GpuBench.h"

namespace gpu_bench {

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) throw mcl::Error(mcl::cuda::error_text(status, what));
}

void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS)
        throw mcl::Error(std::string(what) + ": " + cublasGetStatusString(status));
}

void check(cusparseStatus_t status, const char* what) {
    if (status != CUSPARSE_STATUS_SUCCESS)
        throw mcl::Error(std::string(what) + ": " + cusparseGetErrorString(status));
}

mcl::cuda::Device& device() { return mcl::cuda::Device::get(); }

void launched(const char* kernel) { check(cudaGetLastError(), kernel); }

unsigned blocks_for(size_t n, unsigned threads) {
    const size_t blocks = (n + threads - 1) / threads;
    if (blocks > size_t(device().properties().maxGridSize[0]))
        throw mcl::Error(std::to_string(n) + " threads need more blocks than a grid holds");
    return unsigned(blocks);
}

void parallel_for(size_t n, const std::function<void(size_t, size_t)>& fn) {
    const size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const size_t parts = std::max<size_t>(1, std::min(cores, (n + 65535) / 65536));
    const size_t chunk = (n + parts - 1) / parts;
    std::vector<std::thread> pool;
    try {
        for (size_t begin = 0; begin < n; begin += chunk) pool.emplace_back(fn, begin, std::min(n, begin + chunk));
    } catch (...) {
        for (std::thread& t : pool) t.join();
        throw;
    }
    for (std::thread& t : pool) t.join();
}

std::vector<float> uniform_vector(size_t n, uint64_t stream, float lo, float hi) {
    std::vector<float> v(n);
    parallel_for(n, [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) v[i] = uniform(stream, i, lo, hi);
    });
    return v;
}

namespace {

// The best copy bandwidth measured so far (GB/s; 0: none).
double copy_gbps(const std::vector<Result>& results) {
    double best = 0;
    for (const Result& r : results)
        if (r.name.rfind("copy/cuda/", 0) == 0 && r.error.empty()) best = std::max(best, r.gbps);
    return best;
}

void print_header() {
    std::printf("%-44s %-27s %10s %10s %9s %7s %8s\n", "benchmark", "size", "time (ms)", "GFLOPS", "GB/s", "of copy",
                "vs ref");
}

// One row of the table: the rates, the bandwidth as a fraction of the copy
// bandwidth (kernel entries), the speed relative to the reference entry.
void print_row(const std::vector<Result>& results, const Result& r) {
    auto format = [](const char* pattern, double value) {
        char text[32];
        std::snprintf(text, sizeof text, pattern, value);
        return std::string(text);
    };
    std::string time, gflops, gbps, of_copy, vs_reference;
    if (r.error.empty()) {
        time = format("%.4f", r.seconds * 1e3);
        if (r.gflops > 0) gflops = format("%.1f", r.gflops);
        if (r.gbps > 0) gbps = format("%.1f", r.gbps);
        const double copy = copy_gbps(results);
        const bool kernel = r.name.size() > 7 && r.name.compare(r.name.size() - 7, 7, "/kernel") == 0;
        if (kernel && r.gbps > 0 && copy > 0) of_copy = format("%.0f%%", 100 * r.gbps / copy);
        for (const Result& ref : results)
            if (!r.reference.empty() && ref.name == r.reference && ref.label == r.label && ref.error.empty())
                vs_reference = format("%.2fx", ref.seconds / r.seconds);
    }
    std::printf("%-44s %-27s %10s %10s %9s %7s %8s%s%s\n", r.name.c_str(), r.label.c_str(), time.c_str(),
                gflops.c_str(), gbps.c_str(), of_copy.c_str(), vs_reference.c_str(), r.error.empty() ? "" : "  ",
                r.error.c_str());
    std::fflush(stdout);
}

void add(std::vector<Result>& results, Result r) {
    results.push_back(std::move(r));
    print_row(results, results.back());
}

}  // namespace

AppBench::AppBench(std::vector<Result>& results, std::string app, std::string label, double flops, double bytes,
                   std::string reference, int repetitions)
    : results_(results), app_(std::move(app)), label_(std::move(label)), reference_(std::move(reference)),
      flops_(flops), bytes_(bytes), repetitions_(repetitions) {}

void AppBench::crosscheck(const std::string& variant, const std::string& label,
                          const std::function<std::string()>& run) {
    std::string error;
    try {
        error = run();
    } catch (const std::exception& e) {
        error = e.what();
    }
    if (error.empty()) {
        std::printf("%s/cuda/%s agrees with the C++ reference at %s\n", app_.c_str(), variant.c_str(), label.c_str());
        return;
    }
    Result r(app_ + "/cuda/" + variant + "/crosscheck", label);
    r.error = "differs from the C++ reference: " + error;
    add(results_, std::move(r));
}

void AppBench::outputs(std::function<void()> reset, std::function<std::string()> check) {
    reset_ = std::move(reset);
    check_ = std::move(check);
}

void AppBench::kernel(const std::string& variant, const std::function<void()>& call, const std::string& what) {
    Result r = measure(variant, what, reset_, call, check_);
    if (variant != reference_) r.reference = app_ + "/cuda/" + reference_ + "/" + what;
    add(results_, std::move(r));
}

void AppBench::with_transfers(const std::vector<HostVersion>& versions, const std::function<void()>& reset,
                              const std::function<std::string()>& check) {
    const HostVersion* fastest = nullptr;
    double fastest_seconds = 0;
    for (const HostVersion& v : versions)
        for (const Result& r : results_)
            if (r.name == app_ + "/cuda/" + v.variant + "/kernel" && r.label == label_ && r.error.empty() &&
                (!fastest || r.seconds < fastest_seconds)) {
                fastest = &v;
                fastest_seconds = r.seconds;
            }
    if (!fastest) {
        Result r(app_ + "/cuda/" + versions.front().variant + "/with_transfers", label_);
        r.error = "not measured: no generated version's kernel verified";
        add(results_, std::move(r));
        return;
    }
    add(results_, measure(fastest->variant, "with_transfers", reset, fastest->call, check));
}

Result AppBench::measure(const std::string& variant, const std::string& what, const std::function<void()>& reset,
                         const std::function<void()>& call, const std::function<std::string()>& verify) {
    Result r(app_ + "/cuda/" + variant + "/" + what, label_);
    try {
        reset();
        call();
        check(cudaDeviceSynchronize(), r.name.c_str());
        r.error = verify();
        if (r.error.empty()) r.seconds = best_time(reset, call, repetitions_);
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    if (r.error.empty() && r.seconds > 0) {
        r.gflops = flops_ / r.seconds * 1e-9;
        r.gbps = bytes_ / r.seconds * 1e-9;
    }
    return r;
}

namespace {

__global__ void fill_words(size_t n, unsigned* words) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) words[i] = unsigned(i) * 2654435761u;
}

__global__ void copy_kernel(size_t n, float4* __restrict__ dst, const float4* __restrict__ src) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i];
}

__global__ void count_mismatches(size_t n, const unsigned* a, const unsigned* b, unsigned long long* count) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n && a[i] != b[i]) atomicAdd(count, 1ull);
}

// "copy/cuda/{memcpy,copy_kernel}/bandwidth": a device-to-device copy of
// sizes.copy_mib MiB, reported as the bytes read and written per second.
void bench_copy(const Sizes& sizes, const Libraries&, std::vector<Result>& results) {
    const size_t bytes = size_t(sizes.copy_mib) << 20, words = bytes / sizeof(unsigned);
    Array<unsigned> src(device(), words), dst(device(), words);
    Array<unsigned long long> mismatches(device(), 1);
    fill_words<<<blocks_for(words, 256), 256>>>(words, src.data());
    launched("fill_words");
    AppBench bench(results, "copy", "MiB=" + std::to_string(sizes.copy_mib), 0, 2.0 * double(bytes), "memcpy", 5);
    bench.outputs([&] { poison(dst); },
                  [&]() -> std::string {
                      check(cudaMemset(mismatches.data(), 0, sizeof(unsigned long long)), "cudaMemset");
                      count_mismatches<<<blocks_for(words, 256), 256>>>(words, dst.data(), src.data(),
                                                                        mismatches.data());
                      launched("count_mismatches");
                      const unsigned long long wrong = download(mismatches)[0];
                      return wrong ? std::to_string(wrong) + " words differ from the source" : "";
                  });
    bench.kernel("memcpy", [&] {
        check(cudaMemcpy(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    }, "bandwidth");
    bench.kernel("copy_kernel", [&] {
        copy_kernel<<<blocks_for(words / 4, 256), 256>>>(words / 4, reinterpret_cast<float4*>(dst.data()),
                                                         reinterpret_cast<const float4*>(src.data()));
        launched("copy_kernel");
    }, "bandwidth");
}

// cuBLAS and cuSPARSE handles for the whole run.
struct BlasHandle {
    cublasHandle_t handle = nullptr;
    BlasHandle() {
        check(cublasCreate(&handle), "cublasCreate");
        check(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");  // FP32, no TF32
    }
    ~BlasHandle() {
        if (handle) cublasDestroy(handle);
    }
};
struct SparseHandle {
    cusparseHandle_t handle = nullptr;
    SparseHandle() { check(cusparseCreate(&handle), "cusparseCreate"); }
    ~SparseHandle() {
        if (handle) cusparseDestroy(handle);
    }
};

struct App {
    const char* name;
    void (*run)(const Sizes&, const Libraries&, std::vector<Result>&);
};
// copy first: the table gives the others' bandwidth as a fraction of it.
const App kApps[] = {{"copy", bench_copy},           {"matmul", bench_matmul},
                     {"gesummv", bench_gesummv},     {"spmv", bench_spmv},
                     {"histogram", bench_histogram}, {"blackscholes", bench_blackscholes},
                     {"convolution", bench_convolution}};

Sizes quick_sizes() {
    Sizes s;
    s.matmul = 512;
    s.gesummv = 1024;
    s.spmv_rows = 1 << 16;
    s.histogram = 1 << 20;
    s.blackscholes = 1 << 20;
    s.convolution = 1024;
    s.copy_mib = 64;
    return s;
}

// A positive number that fits an int, or -1.
long long positive(const char* text) {
    char* end = nullptr;
    const long long v = std::strtoll(text, &end, 10);
    return end != text && *end == '\0' && v > 0 && v <= 0x7fffffff ? v : -1;
}

bool parse(int argc, char** argv, Sizes& sizes, std::vector<std::string>& apps) {
    for (int i = 2; i < argc; ++i)
        if (std::strcmp(argv[i], "--quick") == 0) sizes = quick_sizes();
    std::pair<const char*, int*> named[] = {{"--matmul=", &sizes.matmul},
                                            {"--gesummv=", &sizes.gesummv},
                                            {"--spmv=", &sizes.spmv_rows},
                                            {"--histogram=", &sizes.histogram},
                                            {"--blackscholes=", &sizes.blackscholes},
                                            {"--convolution=", &sizes.convolution},
                                            {"--filter=", &sizes.filter},
                                            {"--copy-mib=", &sizes.copy_mib}};
    int positional = 0;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--quick") continue;
        if (arg.rfind("--apps=", 0) == 0) {
            apps.clear();
            for (size_t start = 7; start <= arg.size();) {
                const size_t comma = std::min(arg.find(',', start), arg.size());
                const std::string app = arg.substr(start, comma - start);
                if (std::none_of(std::begin(kApps), std::end(kApps), [&](const App& a) { return app == a.name; })) {
                    std::fprintf(stderr, "gpu_bench: unknown application '%s'\n", app.c_str());
                    return false;
                }
                apps.push_back(app);
                start = comma + 1;
            }
            continue;
        }
        int* size = nullptr;
        const char* value = arg.c_str();
        for (auto& [prefix, field] : named) {
            if (arg.rfind(prefix, 0) == 0) {
                size = field;
                value += std::strlen(prefix);
            }
        }
        if (!size && arg[0] != '-' && positional < 2) size = positional++ == 0 ? &sizes.matmul : &sizes.gesummv;
        const long long v = size ? positive(value) : -1;
        if (v < 0) {
            std::fprintf(stderr, "gpu_bench: bad argument '%s'\n", arg.c_str());
            return false;
        }
        *size = int(v);
    }
    return true;
}

}  // namespace
}  // namespace gpu_bench

int main(int argc, char** argv) {
    using namespace gpu_bench;
    Sizes sizes;
    std::vector<std::string> apps;
    for (const App& a : kApps) apps.push_back(a.name);
    if (argc < 2 || !parse(argc, argv, sizes, apps)) {
        std::fprintf(stderr,
                     "usage: gpu_bench OUT.json [matmul_size [gesummv_size]] [--quick] [--apps=A,B,...] "
                     "[--matmul=N] [--gesummv=N] [--spmv=ROWS] [--histogram=N] [--blackscholes=N] "
                     "[--convolution=N] [--filter=K] [--copy-mib=M]\n");
        return 2;
    }
    try {
        device().activate();
        BlasHandle blas;
        SparseHandle sparse;
        const Libraries libs{blas.handle, sparse.handle};
        const std::string host = device().name();
        std::printf("%s\n", host.c_str());
        print_header();
        std::vector<Result> results;
        for (const App& a : kApps) {
            if (std::find(apps.begin(), apps.end(), a.name) == apps.end()) continue;
            try {
                a.run(sizes, libs, results);
            } catch (const std::exception& e) {
                Result r(std::string(a.name) + "/cuda/setup/kernel", "");
                r.error = e.what();
                add(results, std::move(r));
            }
            if (!write_json(argv[1], host, results)) {
                std::fprintf(stderr, "gpu_bench: cannot write %s\n", argv[1]);
                return 1;
            }
        }
        return std::any_of(results.begin(), results.end(), [](const Result& r) { return !r.error.empty(); }) ? 1
                                                                                                             : 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpu_bench: %s\n", e.what());
        return 1;
    }
}
