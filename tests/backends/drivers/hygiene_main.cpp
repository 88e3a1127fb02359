// hygiene (tests/backends/kernels): b[i] = a[i] - (i + 3 * gpu + cpu), from
// a kernel whose names are those that translation and code generation use.
#include <vector>

#include "DriverSupport.h"
#include "hygiene.h"

int main() {
    mcl::test::Checker check("hygiene");
    mcl::test::Random rng(5);
    for (int n : {1, 33, 1000003}) {
        const int gpu = 2, cpu = 5;
        std::vector<float> a(static_cast<size_t>(n)), b(a.size(), -1.0f);
        for (float& v : a) v = rng.uniform(-1, 1);
        hygiene::shift(n, gpu, cpu, a.data(), b.data());
        for (int i = 0; i < n; ++i)
            check.close("b", i, b[size_t(i)], double(a[size_t(i)]) - double(i + 3 * gpu + cpu), 0, 1e-6);
    }
    return check.finish();
}
