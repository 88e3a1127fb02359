// The demo's application (scripts/demo): multiplies two matrices with the
// generated glue of examples/matmul, checks every result against the C++
// reference (matmul_reference.h) and prints the time and the rate in GFLOPS
// (2 * n * m * p floating-point operations over the time).
//
// One source for every build of the demo; what it is built with decides:
//   - the module: matmul_gpu_v1.h on the include path (matmul_gpu_v1.mcl, the
//     gpu-level version) or else matmul.h (matmul.mcl, the perfect level);
//   - the backend: mcl_opencl.h on the include path means OpenCL glue: the
//     program prints the device, times the call with its transfers and the
//     resident API (data kept in mcl::opencl::DeviceArray: kernel only);
//     otherwise the cpp (OpenMP) glue, timed per call.
// Usage: matmul_demo [n [m [p]]] (default 512 x 512 x 512). Exit status 0
// when every result matches the reference, 1 otherwise.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#if __has_include("matmul_gpu_v1.h")
#include "matmul_gpu_v1.h"
namespace demo = matmul_gpu_v1;
static const char* const kModule = "matmul_gpu_v1";
#elif __has_include("matmul_x86_avx2_v2.h")
#include "matmul_x86_avx2_v2.h"
namespace demo = matmul_x86_avx2_v2;
static const char* const kModule = "matmul_x86_avx2_v2";
#else
#include "matmul.h"
namespace demo = matmul;
static const char* const kModule = "matmul";
#endif
#if __has_include("mcl_opencl.h")
#define DEMO_OPENCL 1
static const char* const kBackend = "opencl";
#else
#define DEMO_OPENCL 0
static const char* const kBackend = "cpp";
#endif

#include "matmul_reference.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Problem {
    int n, m, p;
    std::vector<float> a, b, want;
    double flops() const { return 2.0 * n * m * p; }
    size_t c_size() const { return static_cast<size_t>(n) * m; }
};

bool all_passed = true;

// Compares c with the reference and prints one line; false on a difference.
void check(const Problem& pr, const std::vector<float>& c, const char* what) {
    size_t wrong = 0;
    for (size_t i = 0; i < c.size(); ++i)
        if (!(std::fabs(c[i] - pr.want[i]) <= 1e-3f * (1.0f + std::fabs(pr.want[i])))) ++wrong;
    std::printf("  check (%s): %zu of %zu elements differ from the reference: %s\n", what, wrong, c.size(),
                wrong == 0 ? "PASS" : "FAIL");
    if (wrong != 0) all_passed = false;
}

void report(const Problem& pr, const char* what, double seconds) {
    std::printf("  %-34s %8.4f s  %7.2f GFLOPS\n", what, seconds, pr.flops() / seconds / 1e9);
}

// Best of `reps` runs of f, which computes c from zero.
template <typename F>
double best_of(int reps, std::vector<float>& c, F f) {
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        std::fill(c.begin(), c.end(), 0.0f);
        auto start = Clock::now();
        f();
        best = std::min(best, seconds_since(start));
    }
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    Problem pr;
    pr.n = argc > 1 ? std::atoi(argv[1]) : 512;
    pr.m = argc > 2 ? std::atoi(argv[2]) : pr.n;
    pr.p = argc > 3 ? std::atoi(argv[3]) : pr.m;
    if (pr.n <= 0 || pr.m <= 0 || pr.p <= 0) {
        std::fprintf(stderr, "usage: %s [n [m [p]]] (positive sizes)\n", argv[0]);
        return 2;
    }
    const int n = pr.n, m = pr.m, p = pr.p;
    pr.a.resize(static_cast<size_t>(n) * p);
    pr.b.resize(static_cast<size_t>(p) * m);
    for (size_t i = 0; i < pr.a.size(); ++i) pr.a[i] = static_cast<float>((i * 7) % 13) / 13.0f - 0.5f;
    for (size_t i = 0; i < pr.b.size(); ++i) pr.b[i] = static_cast<float>((i * 5) % 11) / 11.0f - 0.5f;
    pr.want.assign(pr.c_size(), 0.0f);
    mcl::examples::matmul_reference(n, m, p, pr.want.data(), pr.a.data(), pr.b.data());
    const float* a = pr.a.data();
    const float* b = pr.b.data();
    std::vector<float> c(pr.c_size(), 0.0f);
    const int reps = 3;

    try {
        std::printf("matmul %dx%dx%d, module %s, %s backend\n", n, m, p, kModule, kBackend);
#if DEMO_OPENCL
        std::printf("  device: %s\n", demo::device().name().c_str());
        // The first call builds the OpenCL program for the device.
        auto start = Clock::now();
        demo::matmul(n, m, p, c.data(), a, b);
        report(pr, "first call (builds the program):", seconds_since(start));
        check(pr, c, "first call");

        double t = best_of(reps, c, [&] { demo::matmul(n, m, p, c.data(), a, b); });
        report(pr, "kernel + transfers:", t);
        check(pr, c, "kernel + transfers");

        // Resident data: a, b and c stay on the device; only the kernel runs.
        mcl::opencl::Device& device = demo::device();
        mcl::opencl::DeviceArray<float> da(device, pr.a.size(), a), db(device, pr.b.size(), b);
        mcl::opencl::DeviceArray<float> dc(device, c.size());
        std::vector<float> zero(c.size(), 0.0f);
        double best = 1e30;
        for (int r = 0; r < reps; ++r) {
            dc.upload(zero.data());
            auto s = Clock::now();
            demo::resident::matmul(n, m, p, dc, da, db);
            best = std::min(best, seconds_since(s));
        }
        report(pr, "kernel only (resident data):", best);
        std::fill(c.begin(), c.end(), -1.0f);
        dc.download(c.data());
        check(pr, c, "resident");
#else
        double t = best_of(reps, c, [&] { demo::matmul(n, m, p, c.data(), a, b); });
        report(pr, "per call:", t);
        check(pr, c, "per call");
#endif
    } catch (const std::exception& e) {
        std::fprintf(stderr, "matmul demo: %s\n", e.what());
        return 1;
    }
    std::printf("  %s\n", all_passed ? "PASS" : "FAIL");
    return all_passed ? 0 : 1;
}
