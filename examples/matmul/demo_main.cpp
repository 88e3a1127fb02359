// The demo's application: multiplies two matrices with the generated glue of
// examples/matmul (namespace matmul), checks the result against the C++
// reference and prints the time and the rate in GFLOPS.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "matmul.h"
#include "matmul_reference.h"

int main() {
    const int n = 512, m = 512, p = 512;
    std::vector<float> a(static_cast<size_t>(n) * p), b(static_cast<size_t>(p) * m);
    std::vector<float> c(static_cast<size_t>(n) * m, 0.0f), want(c.size(), 0.0f);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 7) % 13) / 13.0f - 0.5f;
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>((i * 5) % 11) / 11.0f - 0.5f;

    auto start = std::chrono::steady_clock::now();
    matmul::matmul(n, m, p, c.data(), a.data(), b.data());
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    mcl::examples::matmul_reference(n, m, p, want.data(), a.data(), b.data());

    size_t wrong = 0;
    for (size_t i = 0; i < c.size(); ++i)
        if (std::fabs(c[i] - want[i]) > 1e-3f * (1.0f + std::fabs(want[i]))) ++wrong;
    std::printf("matmul %dx%dx%d: %.3f s, %.2f GFLOPS, %zu of %zu elements differ from the reference: %s\n", n, m,
                p, seconds, 2.0 * n * m * p / seconds / 1e9, wrong, c.size(), wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
