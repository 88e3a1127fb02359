// scratch_arrays (tests/backends/kernels): every row of x mirrored and
// increased by one, through arrays in device memory that the kernel declares
// at its top level, per block and per thread.
#include <vector>

#include "DriverSupport.h"
#include "scratch_arrays.h"

int main() {
    mcl::test::Checker check("scratch_arrays");
    mcl::test::Random rng(3);
    for (int n : {1, 7, 1000}) {
        std::vector<float> x(size_t(n) * 32), want(x.size());
        for (float& v : x) v = rng.uniform(-1, 1);
        for (int b = 0; b < n; ++b)
            for (int t = 0; t < 32; ++t) want[size_t(b) * 32 + t] = x[size_t(b) * 32 + 31 - t] + 1.0f;
        scratch_arrays::mirror_rows(n, x.data());
        for (size_t i = 0; i < x.size(); ++i) check.close("x", long(i), x[i], want[i], 0, 0);
    }
    return check.finish();
}
