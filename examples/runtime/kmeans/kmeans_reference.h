// C++ reference for examples/runtime/kmeans (kmeans.mcl, kmeans_gpu.mcl: both
// levels compute the same thing), in the kernel's parameter order.
//
// For a chunk of n points of dimension d (points: n x d, row-major) and k
// centroids (centroids: k x d, row-major), k >= 1:
//   membership[i] = index of the centroid nearest to point i (squared
//                   Euclidean distance, ties to the lowest index);
//   sums[c * d + j] = sum of points[i * d + j] over the points i with
//                   membership[i] == c;
//   counts[c]     = number of points i with membership[i] == c.
// Every element of membership, sums and counts is written; none needs to be
// initialised.
//
// The distance is accumulated in float in the kernel's order (j ascending),
// so membership equals the kernel's unless a compiler contracts
// diff * diff + dist into a fused multiply-add and that decides a near tie
// (none on generic data). sums adds the points in ascending order, as
// kmeans.mcl does; kmeans_gpu.mcl adds them per thread and then in a tree:
// compare sums with a tolerance (1e-4 relative plus 1e-4 absolute suffices
// for chunks of a few thousand points with coordinates of magnitude 1),
// membership and counts exactly.
#pragma once

#include <cstddef>

namespace mcl::examples {

inline void kmeans_assign_reference(int n, int k, int d, int* membership, float* sums, int* counts,
                                    const float* points, const float* centroids) {
    const auto sn = static_cast<std::size_t>(n);
    const auto sk = static_cast<std::size_t>(k);
    const auto sd = static_cast<std::size_t>(d);
    for (std::size_t i = 0; i < sn; ++i) {
        int best = 0;
        float best_dist = 0.0f;
        for (std::size_t c = 0; c < sk; ++c) {
            float dist = 0.0f;
            for (std::size_t j = 0; j < sd; ++j) {
                float diff = points[i * sd + j] - centroids[c * sd + j];
                dist += diff * diff;
            }
            if (c == 0 || dist < best_dist) {
                best = static_cast<int>(c);
                best_dist = dist;
            }
        }
        membership[i] = best;
    }
    for (std::size_t c = 0; c < sk; ++c) {
        counts[c] = 0;
        for (std::size_t j = 0; j < sd; ++j) sums[c * sd + j] = 0.0f;
    }
    for (std::size_t i = 0; i < sn; ++i) {
        const auto c = static_cast<std::size_t>(membership[i]);
        ++counts[c];
        for (std::size_t j = 0; j < sd; ++j) sums[c * sd + j] += points[i * sd + j];
    }
}

}  // namespace mcl::examples
