// Shared by the matmul benchmarks: c += a * b, square n x n x n, random in
// [-0.5, 0.5) and built once per size, with OpenBLAS cblas_sgemm as the
// reference result; the host-pointer benchmark body and the registration
// (sizes as arguments, a fixed iteration count).
#pragma once

#include <cblas.h>

#include <memory>
#include <string>
#include <vector>

#include "BenchSupport.h"

namespace matmul_bench {

struct Data {
    int n;
    std::vector<float> a, b, c, want;  // want: c + a * b by OpenBLAS
    explicit Data(int n_) : n(n_), a(size_t(n_) * n_), b(size_t(n_) * n_), c(size_t(n_) * n_) {
        unsigned s = 12345;
        auto rnd = [&] { s = s * 1103515245u + 12345u; return float((s >> 8) & 0xffff) / 65536.0f - 0.5f; };
        for (float& x : a) x = rnd();
        for (float& x : b) x = rnd();
        for (float& x : c) x = rnd();
        want = c;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 1.0f,
                    want.data(), n);
    }
};

inline Data& data(int n) {
    static std::vector<std::unique_ptr<Data>> all;
    for (auto& d : all) if (d->n == n) return *d;
    all.push_back(std::make_unique<Data>(n));
    return *all.back();
}

inline bool check(benchmark::State& s, const std::vector<float>& got, const Data& d) {
    return mcl::bench::verify(s, got.data(), d.want.data(), got.size(), 1e-3, 1e-3);
}

inline void finish(benchmark::State& s, int n) {
    mcl::bench::report_gflops(s, 2.0 * n * n * n);
    s.SetLabel("n=" + std::to_string(n));
}

// OpenBLAS with the signature of the generated host API.
inline void sgemm(int n, int m, int p, float* c, const float* a, const float* b) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, m, p, 1.0f, a, p, b, m, 1.0f, c, m);
}

// F on host pointers (generated C++, the host API of generated OpenCL with
// its copies in and out, or OpenBLAS).
template <void (*F)(int, int, int, float*, const float*, const float*)>
void host(benchmark::State& s) {
    int n = int(s.range(0));
    Data& d = data(n);
    std::vector<float> c = d.c;
    if (mcl::bench::timed(s, [&] { F(n, n, n, c.data(), d.a.data(), d.b.data()); }, [&] { return check(s, c, d); }))
        finish(s, n);
}

inline void add(const char* name, void (*fn)(benchmark::State&), std::vector<int> sizes, int iterations) {
    auto* b = mcl::bench::add(name, fn, iterations);
    for (int n : sizes) b->Arg(n);
}

}  // namespace matmul_bench
