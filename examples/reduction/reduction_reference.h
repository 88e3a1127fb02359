// C++ reference for examples/reduction (reduction.mcl).
//
// *sum += values[0] + ... + values[n-1]. The scalar result of the kernel is
// passed as a pointer to one float, read and written (set it to 0 first for
// a plain sum). The kernel adds atomically in no fixed order, so no order is
// exact: this reference accumulates in double and rounds once, the most
// accurate answer. Compare with a tolerance of about n * 2^-24 * sum|values|.
#pragma once

namespace mcl::examples {

inline void reduction_reference(int n, float* sum, const float* values) {
    double acc = static_cast<double>(*sum);
    for (int i = 0; i < n; ++i) {
        acc += static_cast<double>(values[i]);
    }
    *sum = static_cast<float>(acc);
}

}  // namespace mcl::examples
