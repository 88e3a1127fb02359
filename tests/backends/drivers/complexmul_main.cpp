// complexmul through the generated glue (records as generated structs)
// against the reference, which has its own struct of the same layout.
#include <vector>

#include "DriverSupport.h"
#include "complexmul.h"
#include "complexmul_reference.h"

static_assert(sizeof(complexmul::Complex) == sizeof(mcl::examples::Complex));

int main() {
    mcl::test::Checker check("complexmul");
    mcl::test::Random rng(9);
    for (int n : {1, 100003}) {
        std::vector<complexmul::Complex> a(n), b(n), c(n);
        std::vector<mcl::examples::Complex> ra(n), rb(n), want(n);
        for (int i = 0; i < n; ++i) {
            a[i] = {rng.uniform(-1, 1), rng.uniform(-1, 1)};
            b[i] = {rng.uniform(-1, 1), rng.uniform(-1, 1)};
            ra[i] = {a[i].real, a[i].imag};
            rb[i] = {b[i].real, b[i].imag};
        }
        complexmul::complexmul(n, c.data(), a.data(), b.data());
        mcl::examples::complexmul_reference(n, want.data(), ra.data(), rb.data());
        for (int i = 0; i < n; ++i) {
            check.close("c.real", i, c[i].real, want[i].real, 1e-6, 1e-5);
            check.close("c.imag", i, c[i].imag, want[i].imag, 1e-6, 1e-5);
        }
    }
    return check.finish();
}
