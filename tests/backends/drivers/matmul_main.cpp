// matmul through the generated glue against the reference (c += a * b),
// relative tolerance for fused multiply-add contraction.
#include <vector>

#include "DriverSupport.h"
#include "matmul.h"
#include "matmul_reference.h"

int main() {
    mcl::test::Checker check("matmul");
    mcl::test::Random rng(3);
    struct Size { int n, m, p; };
    for (Size s : {Size{1, 1, 1}, Size{67, 129, 33}, Size{3, 1, 17}, Size{1, 9, 1}}) {
        std::vector<float> a(s.n * s.p), b(s.p * s.m), c(s.n * s.m);
        for (float& x : a) x = rng.uniform(-1, 1);
        for (float& x : b) x = rng.uniform(-1, 1);
        for (float& x : c) x = rng.uniform(-1, 1);
        std::vector<float> want = c;
        matmul::matmul(s.n, s.m, s.p, c.data(), a.data(), b.data());
        mcl::examples::matmul_reference(s.n, s.m, s.p, want.data(), a.data(), b.data());
        for (size_t i = 0; i < c.size(); ++i) check.close("c", static_cast<long>(i), c[i], want[i], 1e-4, 1e-5);
    }
    return check.finish();
}
