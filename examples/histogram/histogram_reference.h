// C++ reference for examples/histogram (histogram.mcl).
//
// hist (256 ints) += counts of the values 0..255 in values[0..n-1]; values
// outside 0..255 are not counted. hist is read and written, as in the
// kernel: zero it first for a plain histogram. Exact (integer counts).
#pragma once

namespace mcl::examples {

inline constexpr int histogram_buckets = 256;

inline void histogram_reference(int n, int* hist, const int* values) {
    for (int i = 0; i < n; ++i) {
        const int v = values[i];
        if (v >= 0 && v < histogram_buckets) {
            ++hist[v];
        }
    }
}

}  // namespace mcl::examples
