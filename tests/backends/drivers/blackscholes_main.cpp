// blackscholes through the generated glue against the reference, with the
// tolerance its header gives (about 1e-4, relative or absolute).
#include <vector>

#include "DriverSupport.h"
#include "blackscholes.h"
#include "blackscholes_reference.h"

int main() {
    mcl::test::Checker check("blackscholes");
    mcl::test::Random rng(7);
    for (int n : {1, 100003}) {
        std::vector<float> price(n), strike(n), years(n);
        for (int i = 0; i < n; ++i) {
            price[i] = rng.uniform(5, 30);
            strike[i] = rng.uniform(1, 100);
            years[i] = rng.uniform(0.25f, 10);
        }
        std::vector<float> call(n), put(n), want_call(n), want_put(n);
        blackscholes::blackscholes(n, 0.02f, 0.3f, call.data(), put.data(), price.data(), strike.data(), years.data());
        mcl::examples::blackscholes_reference(n, 0.02f, 0.3f, want_call.data(), want_put.data(), price.data(),
                                              strike.data(), years.data());
        for (int i = 0; i < n; ++i) {
            check.close("callPrice", i, call[i], want_call[i], 1e-4, 1e-4);
            check.close("putPrice", i, put[i], want_put[i], 1e-4, 1e-4);
        }
    }
    return check.finish();
}
