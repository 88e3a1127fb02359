// Two modules whose kernels share the name `vectoradd`, generated for the
// same backend and linked into one program: each host function must reach
// its own module's kernel.
#include <vector>

#include "DriverSupport.h"
#include "scaled_vectoradd.h"
#include "vectoradd.h"

int main() {
    mcl::test::Checker check("two modules");
    mcl::test::Random rng(2);
    for (int n : {1, 1000}) {
        std::vector<float> a(n), b(n), sum(n), scaled(n);
        for (int i = 0; i < n; ++i) a[i] = rng.uniform(-1, 1), b[i] = rng.uniform(-1, 1);
        vectoradd::vectoradd(n, sum.data(), a.data(), b.data());
        scaled_vectoradd::vectoradd(n, 3.0f, scaled.data(), a.data(), b.data());
        for (int i = 0; i < n; ++i) {
            check.close("vectoradd::vectoradd", i, sum[i], a[i] + b[i], 0, 0);
            check.close("scaled_vectoradd::vectoradd", i, scaled[i], 3.0f * a[i] + b[i], 1e-6, 1e-6);
        }
    }
    return check.finish();
}
