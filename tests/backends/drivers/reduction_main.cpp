// reduction through the generated glue against the reference, with the
// tolerance its header gives: n * 2^-24 * sum |values|.
#include <cmath>
#include <vector>

#include "DriverSupport.h"
#include "reduction.h"
#include "reduction_reference.h"

int main() {
    mcl::test::Checker check("reduction");
    mcl::test::Random rng(2);
    for (int n : {1, 7, 1000003}) {
        std::vector<float> values(n);
        double magnitude = 0;
        for (int i = 0; i < n; ++i) values[i] = rng.uniform(-1, 2), magnitude += std::fabs(values[i]);
        float sum = 0.5f, want = 0.5f;  // accumulates into what it holds
        reduction::reduction(n, &sum, values.data());
        mcl::examples::reduction_reference(n, &want, values.data());
        check.close("sum", n, sum, want, 1e-6 + n * std::ldexp(1.0, -24) * magnitude, 0);
    }
    return check.finish();
}
