// histogram through the generated glue against the reference: exact, with
// values outside 0..255 that must not be counted.
#include <vector>

#include "DriverSupport.h"
#include "histogram.h"
#include "histogram_reference.h"

int main() {
    mcl::test::Checker check("histogram");
    mcl::test::Random rng(5);
    for (int n : {1, 1000003}) {
        std::vector<int> values(n);
        for (int& v : values) v = rng.integer(-20, 275);
        std::vector<int> hist(256), want(256);
        for (int i = 0; i < 256; ++i) hist[i] = want[i] = i % 3;  // accumulates into what it holds
        histogram::histogram(n, hist.data(), values.data());
        mcl::examples::histogram_reference(n, want.data(), values.data());
        for (int i = 0; i < 256; ++i) check.exact("hist", i, hist[i], want[i]);
    }
    return check.finish();
}
