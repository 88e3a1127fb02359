// C++ reference for examples/blackscholes (blackscholes.mcl).
//
// Call and put prices of n European options (stock price, strike price,
// years to expiry > 0 per option; riskless rate and volatility > 0 shared),
// with the cumulative normal distribution approximated as in the kernel
// (Abramowitz and Stegun 26.2.17, absolute error below 7.5e-8). Computes in
// float with the same formulas and order as the kernel; the target's sqrt,
// log and exp may differ from the host's by a few ulp: compare with a
// tolerance (about 1e-4 relative or absolute, prices are O(strike)).
#pragma once

#include <cmath>

namespace mcl::examples {

inline float blackscholes_cnd(float d) {
    constexpr float p = 0.2316419f;
    constexpr float a1 = 0.319381530f;
    constexpr float a2 = -0.356563782f;
    constexpr float a3 = 1.781477937f;
    constexpr float a4 = -1.821255978f;
    constexpr float a5 = 1.330274429f;
    constexpr float rsqrt2pi = 0.398942280401432678f;  // 1 / sqrt(2 pi)
    const float k = 1.0f / (1.0f + p * std::fabs(d));
    const float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float c = rsqrt2pi * std::exp(-0.5f * d * d) * poly;
    if (d > 0.0f) {
        c = 1.0f - c;
    }
    return c;
}

inline void blackscholes_reference(int n, float riskfree, float volatility,
                                   float* callPrice, float* putPrice,
                                   const float* price, const float* strike,
                                   const float* years) {
    for (int i = 0; i < n; ++i) {
        const float s = price[i];
        const float x = strike[i];
        const float t = years[i];
        const float sqrtT = std::sqrt(t);
        const float d1 =
            (std::log(s / x) + (riskfree + 0.5f * volatility * volatility) * t) /
            (volatility * sqrtT);
        const float d2 = d1 - volatility * sqrtT;
        const float cndD1 = blackscholes_cnd(d1);
        const float cndD2 = blackscholes_cnd(d2);
        const float discounted = x * std::exp(-riskfree * t);
        callPrice[i] = s * cndD1 - discounted * cndD2;
        putPrice[i] = discounted * (1.0f - cndD2) - s * (1.0f - cndD1);
    }
}

}  // namespace mcl::examples
