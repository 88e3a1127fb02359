// vectoradd through the generated glue against the reference: exact. Then
// the glue's refusal of a result array that shares memory with an input
// (the kernel's parameters never alias), for every backend the same; inputs
// may share memory with each other.
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

    std::vector<float> x{1, 2, 3, 4, 5}, y{10, 20, 30, 40, 50};
    check.exact("result is an input", 0,
                mcl::test::throws_with("c is a", [&] { vectoradd::vectoradd(5, x.data(), x.data(), y.data()); },
                                       {"vectoradd::vectoradd", "'c' and 'a' share memory", "writes 'c'"}),
                1);
    check.exact("result overlaps an input", 1,
                mcl::test::throws_with("c is b + 4", [&] { vectoradd::vectoradd(3, y.data() + 2, x.data(), y.data()); },
                                       {"'c' and 'b' share memory"}),
                1);
    check.exact("refused before it ran", 0, static_cast<long>(y[2] + x[0]), 31);
    std::vector<float> twice(5);
    vectoradd::vectoradd(5, twice.data(), x.data(), x.data());
    for (int i = 0; i < 5; ++i) check.close("inputs may share memory", i, twice[i], 2 * x[i], 0, 0);
    vectoradd::vectoradd(2, y.data() + 2, y.data(), x.data());  // y[2..3] = y[0..1] + x[0..1]: apart
    check.close("adjacent arrays", 0, y[2], 11, 0, 0);
    check.close("adjacent arrays", 1, y[3], 22, 0, 0);
    return check.finish();
}
