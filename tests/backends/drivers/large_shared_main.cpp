// large_shared (tests/backends/kernels): each chunk of 16384 floats reversed
// through 64 KB of shared memory per block, for sizes that end inside a chunk.
#include <vector>

#include "DriverSupport.h"
#include "large_shared.h"

int main() {
    mcl::test::Checker check("large_shared");
    mcl::test::Random rng(4);
    const int chunk = 16384;
    for (int n : {1, 16384, 40000}) {
        std::vector<float> src(n), dst(n, -7.0f), want(n);
        for (float& v : src) v = rng.uniform(-1, 1);
        for (int g = 0; g < n; ++g) {
            int b = g / chunk, k = g % chunk, from = b * chunk + chunk - 1 - k;
            want[g] = from < n ? src[from] : 0.0f;
        }
        large_shared::reverse_chunks(n, dst.data(), src.data());
        for (int g = 0; g < n; ++g) check.close("dst", g, dst[g], want[g], 0, 0);
    }
    return check.finish();
}
