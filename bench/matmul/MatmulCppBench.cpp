// matmul with the generated C++ backend (device "cpu", OpenMP): mcl_perfect
// (matmul.mcl at x86_avx2), mcl_x86_avx2 (register tiles) and mcl_x86_avx2_v2
// (b packed, lanes vectorized), with OpenBLAS cblas_sgemm as the reference
// in the same run. The cpp kernels run in the host process: "kernel".
#include <cblas.h>

#include <memory>
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "matmul.h"
#include "matmul_x86_avx2.h"
#include "matmul_x86_avx2_v2.h"

namespace {

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

Data& data(int n) {
    static std::vector<std::unique_ptr<Data>> all;
    for (auto& d : all) if (d->n == n) return *d;
    all.push_back(std::make_unique<Data>(n));
    return *all.back();
}

template <void (*F)(int, int, int, float*, const float*, const float*)>
void kernel(benchmark::State& s) {
    int n = int(s.range(0));
    Data& d = data(n);
    std::vector<float> c = d.c;
    F(n, n, n, c.data(), d.a.data(), d.b.data());
    if (!mcl::bench::verify(s, c.data(), d.want.data(), c.size(), 1e-3, 1e-3)) return;
    for (auto _ : s) F(n, n, n, c.data(), d.a.data(), d.b.data());
    mcl::bench::report_gflops(s, 2.0 * n * n * n);
    s.SetLabel("n=" + std::to_string(n));
}

void sgemm(int n, int m, int p, float* c, const float* a, const float* b) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, m, p, 1.0f, a, p, b, m, 1.0f, c, m);
}

void add(const char* name, void (*fn)(benchmark::State&), std::vector<int> sizes, int iterations) {
    auto* b = benchmark::RegisterBenchmark(name, fn);
    for (int n : sizes) b->Arg(n);
    b->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(iterations);
}

}  // namespace

int main(int argc, char** argv) {
    add("matmul/cpu/openblas/kernel", kernel<sgemm>, {512, 2048}, 3);
    add("matmul/cpu/mcl_perfect/kernel", kernel<matmul::matmul>, {512}, 2);
    add("matmul/cpu/mcl_x86_avx2/kernel", kernel<matmul_x86_avx2::matmul>, {512, 2048}, 1);
    add("matmul/cpu/mcl_x86_avx2_v2/kernel", kernel<matmul_x86_avx2_v2::matmul>, {512, 2048}, 3);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
