// gesummv through the generated glue against the reference.
#include <vector>

#include "DriverSupport.h"
#include "gesummv.h"
#include "gesummv_reference.h"

int main() {
    mcl::test::Checker check("gesummv");
    mcl::test::Random rng(6);
    for (int n : {1, 301}) {
        std::vector<float> a(n * n), b(n * n), x(n), y(n, -1.0f), want(n, -2.0f);
        for (float& v : a) v = rng.uniform(-1, 1);
        for (float& v : b) v = rng.uniform(-1, 1);
        for (float& v : x) v = rng.uniform(-1, 1);
        gesummv::gesummv(n, 1.5f, -0.75f, y.data(), a.data(), b.data(), x.data());
        mcl::examples::gesummv_reference(n, 1.5f, -0.75f, want.data(), a.data(), b.data(), x.data());
        for (int i = 0; i < n; ++i) check.close("y", i, y[i], want[i], 1e-4, 1e-5);
    }
    return check.finish();
}
