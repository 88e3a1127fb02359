// vectoradd through the generated glue against the reference: exact.
#include <vector>

#include "DriverSupport.h"
#include "vectoradd.h"
#include "vectoradd_reference.h"

int main() {
    mcl::test::Checker check("vectoradd");
    mcl::test::Random rng(1);
    for (int n : {1, 7, 1000003}) {
        std::vector<float> a(n), b(n), c(n, -1.0f), want(n, -2.0f);
        for (int i = 0; i < n; ++i) a[i] = rng.uniform(-1, 1), b[i] = rng.uniform(-1, 1);
        vectoradd::vectoradd(n, c.data(), a.data(), b.data());
        mcl::examples::vectoradd_reference(n, want.data(), a.data(), b.data());
        for (int i = 0; i < n; ++i) check.close("c", i, c[i], want[i], 0, 0);
    }
    return check.finish();
}
