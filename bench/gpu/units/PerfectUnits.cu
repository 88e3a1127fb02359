// The threads per block of perfect kernels at hopper, measured (issue 17):
// translation chooses as many threads per block as spread a foreach's units
// over all multiprocessors (between 32 and gpu's max_nr_units, 1024), where
// before it took 1024, which gives a one-dimensional foreach of n units n /
// 1024 blocks and can leave most of the device idle. This program runs each
// application's perfect version with translation's choice ("fill") and
// with the fixed block sizes of prepare.sh's variants (1024 down to 32), at
// benchmark sizes and at a size that leaves an H100 under-filled at 1024,
// checks that every variant computes what the 1024-thread one does, and
// times the kernels (resident API; best of 5 after a warm-up, CUDA events).
// Writes Google Benchmark's JSON format:
//   perfect_units OUT.json
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "GpuResults.h"
#include "variants.h"

namespace {

using gpu_bench::Result;

template <typename T>
using Array = mcl::cuda::DeviceArray<T>;

// The first element where a variant's output differs from the 1024-thread one.
template <typename T>
std::string compare(const std::vector<T>& got, const std::vector<T>& want) {
    for (size_t i = 0; i < got.size(); ++i)
        if (!(std::fabs(double(got[i]) - double(want[i])) <= 1e-5 * (1 + std::fabs(double(want[i])))))
            return "differs from 1024 threads at " + std::to_string(i);
    return "";
}

// Runs `call(threads)` for each block size (0: translation's choice): the
// output `out` is reset with `reset`, computed once and compared with the
// 1024-thread result, then timed.
template <typename T>
void measure(const std::string& app, const std::string& label, std::vector<Result>& results,
             const std::function<void()>& reset, const std::function<void(int)>& call, const Array<T>& out) {
    std::vector<T> want(out.size()), got(out.size());
    for (int threads : {1024, 0, 512, 256, 128, 64, 32}) {  // 0: translation's choice
        Result r("units/" + app + "/t" + (threads ? std::to_string(threads) : "fill") + "/kernel", label);
        try {
            reset();
            call(threads);
            mcl::cuda::check(cudaDeviceSynchronize(), "first call");
            out.download(threads == 1024 ? want.data() : got.data());
            if (threads != 1024) r.error = compare(got, want);
            const std::function<void()> reset_and_call = [&] { reset(); call(threads); };
            reset_and_call();  // warm-up
            mcl::cuda::check(cudaDeviceSynchronize(), "warm-up");
            r.seconds = gpu_bench::best_time([] {}, reset_and_call, 5);
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        std::printf("%-28s %-16s %10.4f ms %s\n", r.name.c_str(), label.c_str(), r.seconds * 1e3, r.error.c_str());
        std::fflush(stdout);
        results.push_back(r);
    }
}

// Calls APP_tT::resident::APP_tT(args...) for the variant with `threads`
// (0: APP_tfill, translation's choice).
#define MCL_UNITS_CALL(app, threads, ...)                                      \
    switch (threads) {                                                         \
        case 0: app##_tfill::resident::app##_tfill(__VA_ARGS__); break;        \
        case 1024: app##_t1024::resident::app##_t1024(__VA_ARGS__); break;     \
        case 512: app##_t512::resident::app##_t512(__VA_ARGS__); break;        \
        case 256: app##_t256::resident::app##_t256(__VA_ARGS__); break;        \
        case 128: app##_t128::resident::app##_t128(__VA_ARGS__); break;        \
        case 64: app##_t64::resident::app##_t64(__VA_ARGS__); break;           \
        default: app##_t32::resident::app##_t32(__VA_ARGS__); break;           \
    }

float pseudo(size_t i, int salt) { return float((i * (7 + 2 * salt)) % 13) / 13 - 0.5f; }

mcl::cuda::Device& dev() { return mcl::cuda::Device::get(); }

void matmul(int n, std::vector<Result>& results) {
    const size_t nn = size_t(n) * n;
    std::vector<float> a(nn), b(nn);
    for (size_t i = 0; i < nn; ++i) a[i] = pseudo(i, 0), b[i] = pseudo(i, 1);
    Array<float> da(dev(), nn, a.data()), db(dev(), nn, b.data()), dc(dev(), nn);
    measure<float>("matmul", "n=" + std::to_string(n), results, [&] { cudaMemset(dc.data(), 0, nn * 4); },
                   [&](int t) { MCL_UNITS_CALL(matmul, t, n, n, n, dc, da, db) }, dc);
}

void gesummv(int n, std::vector<Result>& results) {
    const size_t nn = size_t(n) * n;
    std::vector<float> a(nn), b(nn), x(n);
    for (size_t i = 0; i < nn; ++i) a[i] = pseudo(i, 0), b[i] = pseudo(i, 1);
    for (int i = 0; i < n; ++i) x[i] = pseudo(i, 2);
    Array<float> da(dev(), nn, a.data()), db(dev(), nn, b.data()), dx(dev(), n, x.data()), dy(dev(), n);
    measure<float>("gesummv", "n=" + std::to_string(n), results, [] {},
                   [&](int t) { MCL_UNITS_CALL(gesummv, t, n, 1.5f, 0.5f, dy, da, db, dx) }, dy);
}

void blackscholes(int n, std::vector<Result>& results) {
    std::vector<float> price(n), strike(n), years(n);
    for (int i = 0; i < n; ++i) {
        price[i] = 5 + float(i % 1000) / 40;
        strike[i] = 1 + float((i * 7) % 1000) / 10;
        years[i] = 0.25f + float((i * 3) % 100) / 10;
    }
    Array<float> dp(dev(), n, price.data()), ds(dev(), n, strike.data()), dyr(dev(), n, years.data()), dcall(dev(), n),
        dput(dev(), n);
    measure<float>("blackscholes", "n=" + std::to_string(n), results, [] {},
                   [&](int t) { MCL_UNITS_CALL(blackscholes, t, n, 0.02f, 0.30f, dcall, dput, dp, ds, dyr) }, dcall);
}

void histogram(int n, std::vector<Result>& results) {
    std::vector<int> values(n);
    for (int i = 0; i < n; ++i) values[i] = int((size_t(i) * 2654435761u) % 256);
    Array<int> dv(dev(), n, values.data()), dh(dev(), 256);
    measure<int>("histogram", "n=" + std::to_string(n), results, [&] { cudaMemset(dh.data(), 0, 256 * 4); },
                 [&](int t) { MCL_UNITS_CALL(histogram, t, n, dh, dv) }, dh);
}

void spmv(int nrows, int per_row, std::vector<Result>& results) {
    const int ncols = nrows, nnz = nrows * per_row;
    std::vector<int> rowptr(nrows + 1), cols(nnz);
    std::vector<float> vals(nnz), x(ncols);
    for (int r = 0; r <= nrows; ++r) rowptr[r] = r * per_row;
    for (size_t k = 0; k < size_t(nnz); ++k) {
        cols[k] = int((k / per_row + (k % per_row) * 977 + (k * 31) % 7) % ncols);
        vals[k] = pseudo(k, 3);
    }
    for (int i = 0; i < ncols; ++i) x[i] = pseudo(i, 4);
    Array<int> drp(dev(), nrows + 1, rowptr.data()), dcols(dev(), nnz, cols.data());
    Array<float> dvals(dev(), nnz, vals.data()), dx(dev(), ncols, x.data()), dy(dev(), nrows);
    measure<float>("spmv", "rows=" + std::to_string(nrows), results, [] {},
                   [&](int t) { MCL_UNITS_CALL(spmv, t, nrows, ncols, nnz, dy, drp, dcols, dvals, dx) }, dy);
}

void convolution(int h, int w, int fh, int fw, std::vector<Result>& results) {
    const size_t in = size_t(h + fh - 1) * (w + fw - 1), out = size_t(h) * w;
    std::vector<float> a(in), f(size_t(fh) * fw);
    for (size_t i = 0; i < in; ++i) a[i] = pseudo(i, 5);
    for (size_t i = 0; i < f.size(); ++i) f[i] = pseudo(i, 6);
    Array<float> da(dev(), in, a.data()), df(dev(), f.size(), f.data()), db(dev(), out);
    measure<float>("convolution", std::to_string(h) + "x" + std::to_string(w), results, [] {},
                   [&](int t) { MCL_UNITS_CALL(convolution, t, h, w, fh, fw, db, da, df) }, db);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: perfect_units OUT.json\n");
        return 2;
    }
    std::vector<Result> results;
    try {
        matmul(4096, results);
        matmul(1024, results);
        gesummv(8192, results);
        gesummv(2048, results);
        blackscholes(1 << 26, results);
        blackscholes(1 << 20, results);
        histogram(1 << 26, results);
        spmv(1 << 22, 16, results);
        spmv(1 << 16, 16, results);
        convolution(8192, 8192, 5, 5, results);
        convolution(1024, 1024, 5, 5, results);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    cudaDeviceProp prop;
    mcl::cuda::check(cudaGetDeviceProperties(&prop, 0), "properties");
    return gpu_bench::write_json(argv[1], prop.name, results) ? 0 : 1;
}
