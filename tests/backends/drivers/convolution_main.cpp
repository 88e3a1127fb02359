// convolution through the generated glue against the reference.
#include <vector>

#include "DriverSupport.h"
#include "convolution.h"
#include "convolution_reference.h"

int main() {
    mcl::test::Checker check("convolution");
    mcl::test::Random rng(4);
    struct Size { int h, w, fh, fw; };
    for (Size s : {Size{1, 1, 1, 1}, Size{37, 53, 5, 3}, Size{9, 1, 2, 7}}) {
        std::vector<float> a((s.h + s.fh - 1) * (s.w + s.fw - 1)), f(s.fh * s.fw);
        std::vector<float> b(s.h * s.w, -1.0f), want(s.h * s.w, -2.0f);
        for (float& x : a) x = rng.uniform(-1, 1);
        for (float& x : f) x = rng.uniform(-1, 1);
        convolution::convolution(s.h, s.w, s.fh, s.fw, b.data(), a.data(), f.data());
        mcl::examples::convolution_reference(s.h, s.w, s.fh, s.fw, want.data(), a.data(), f.data());
        for (size_t i = 0; i < b.size(); ++i) check.close("b", static_cast<long>(i), b[i], want[i], 1e-5, 1e-5);
    }
    return check.finish();
}
