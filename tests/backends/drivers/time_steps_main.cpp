// time_steps (tests/backends/kernels): a Jacobi stencil's time loop around
// its foreach loops, against a C++ reference, on awkward sizes and step
// counts (odd and even, none at all).
#include <vector>

#include "DriverSupport.h"
#include "time_steps.h"

namespace {

// `steps` Jacobi steps, ping-pong between a and b as the kernels do.
void reference(int n, int steps, std::vector<float>& a, std::vector<float>& b) {
    for (int t = 0; t < steps; ++t) {
        std::vector<float>& from = t % 2 == 0 ? a : b;
        std::vector<float>& to = t % 2 == 0 ? b : a;
        for (int i = 0; i + 2 < n; ++i) to[i + 1] = 0.25f * from[i] + 0.5f * from[i + 1] + 0.25f * from[i + 2];
    }
}

}  // namespace

int main() {
    mcl::test::Checker check("time_steps");
    mcl::test::Random rng(5);
    for (int n : {1, 3, 1001, 100003})
        for (int steps : {0, 1, 4, 7}) {
            std::vector<float> a(static_cast<size_t>(n)), b(a.size());
            for (float& v : a) v = rng.uniform(-1, 1);
            for (float& v : b) v = rng.uniform(-1, 1);
            std::vector<float> want_a = a, want_b = b;
            reference(n, steps, want_a, want_b);

            std::vector<float> got_a = a, got_b = b;
            time_steps::jacobi(n, steps, got_a.data(), got_b.data());
            for (int i = 0; i < n; ++i) {
                check.close("jacobi a", i, got_a[size_t(i)], want_a[size_t(i)], 1e-6, 1e-5);
                check.close("jacobi b", i, got_b[size_t(i)], want_b[size_t(i)], 1e-6, 1e-5);
            }
            got_a = a, got_b = b;
            int count = -1;
            time_steps::relax(n, steps, got_a.data(), got_b.data(), &count);
            for (int i = 0; i < n; ++i) {
                check.close("relax a", i, got_a[size_t(i)], want_a[size_t(i)], 1e-6, 1e-5);
                check.close("relax b", i, got_b[size_t(i)], want_b[size_t(i)], 1e-6, 1e-5);
            }
            check.exact("relax count", steps, count, steps);
        }
    return check.finish();
}
