// large_array (tests/backends/kernels): a 65537 x 32768 byte array (2^31 +
// 2^15 elements, 2.1 GB), whose offsets do not fit in int, and a byte
// vector of 2^31 - 2 elements, whose vector count divide_up(n, lanes) would
// overflow int. Checks the elements around 2^31 and at the end; the kernels
// write every element, so the arrays are not initialised here.
#include <climits>
#include <cstdint>
#include <memory>

#include "DriverSupport.h"
#include "large_array.h"

int main() {
    mcl::test::Checker check("large_array");
    {
        const int n = 65537, m = 32768;
        std::unique_ptr<unsigned char[]> a(new unsigned char[size_t(n) * size_t(m)]);
        large_array::fill_matrix(n, m, a.get());
        auto at = [&](long i, long j) {
            check.exact("a", i * m + j, a[size_t(i) * size_t(m) + size_t(j)], static_cast<unsigned char>(3 * i + j));
        };
        for (long i : {0L, 1L, 65535L, 65536L})
            for (long j : {0L, 1L, 12345L, 32766L, 32767L}) at(i, j);
        for (long j = 0; j < m; j += 97) at(n - 1, j);
    }
    {
        const int n = INT_MAX - 1;
        std::unique_ptr<unsigned char[]> v(new unsigned char[size_t(n)]);
        v[size_t(n) - 1] = 0;  // unlike what the kernel writes there
        large_array::fill_vector(n, v.get());
        for (long i : {0L, 1L, 255L, long(n) - 8, long(n) - 2, long(n) - 1})
            check.exact("v", i, v[size_t(i)], static_cast<unsigned char>(i));
    }
    return check.finish();
}
