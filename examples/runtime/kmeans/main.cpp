// K-means clustering on the MCL runtime: the points are cut into chunks,
// and each iteration assigns every chunk's points to their nearest centroid
// and sums them per centroid in one task (kmeans_assign; the perfect version
// on CPUs, the gpu version on GPUs). The host adds the chunks' sums and
// moves the centroids. The result (centroids and memberships after the
// iterations) is checked against the same computation with the C++
// reference kernel.
//
//   runtime_kmeans [--size POINTS] [--chunk C] [--iterations I] [--affinity CPU,GPU] [--static [--split CPU,GPU]]
#include <algorithm>
#include <iostream>
#include <memory>
#include <vector>

#include "../common/RuntimeApp.h"
#include "kmeans.h"
#include "runtime/kmeans/kmeans_reference.h"

namespace {

constexpr int kClusters = 8, kDimensions = 4;

// New centroids from the chunks' sums and counts (a centroid without
// points stays where it is).
void move_centroids(std::vector<float>& centroids, const std::vector<std::vector<float>>& sums,
                    const std::vector<std::vector<int>>& counts) {
    for (int c = 0; c < kClusters; ++c) {
        double total[kDimensions] = {};
        long members = 0;
        for (size_t chunk = 0; chunk < sums.size(); ++chunk) {
            members += counts[chunk][c];
            for (int j = 0; j < kDimensions; ++j) total[j] += sums[chunk][c * kDimensions + j];
        }
        if (members)
            for (int j = 0; j < kDimensions; ++j) centroids[c * kDimensions + j] = float(total[j] / members);
    }
}

}  // namespace

int main(int argc, char** argv) {
    try {
        mcl::rt::Runtime runtime(&argc, &argv);
        mcl::examples::AppOptions o = mcl::examples::parse_options(argc, argv, 10007, 1000, 4);
        const size_t n = size_t(o.size);
        const mcl::examples::Pieces chunks{n, size_t(o.tile)};
        std::vector<float> points = mcl::examples::random_values(n * kDimensions, 7, 0, 10);
        std::vector<float> initial(points.begin(), points.begin() + kClusters * kDimensions);

        // The reference: the same iterations with the C++ kernel.
        std::vector<float> expected_centroids = initial;
        std::vector<int> expected_membership(n);
        std::vector<std::vector<float>> sums(chunks.count(), std::vector<float>(kClusters * kDimensions));
        std::vector<std::vector<int>> counts(chunks.count(), std::vector<int>(kClusters));
        for (int it = 0; it < o.iterations; ++it) {
            for (size_t i = 0; i < chunks.count(); ++i)
                mcl::examples::kmeans_assign_reference(int(chunks.length(i)), kClusters, kDimensions,
                                                       expected_membership.data() + chunks.first(i), sums[i].data(),
                                                       counts[i].data(), points.data() + chunks.first(i) * kDimensions,
                                                       expected_centroids.data());
            move_centroids(expected_centroids, sums, counts);
        }

        std::vector<float> centroids = initial;
        std::vector<int> membership(n);
        double seconds = 0;
        {
            // Chunks are spread over the ranks in turn under MPI.
            std::vector<std::unique_ptr<mcl::rt::Matrix<float>>> point_chunks;
            std::vector<std::unique_ptr<mcl::rt::Vector<int>>> members, chunk_counts;
            std::vector<std::unique_ptr<mcl::rt::Matrix<float>>> chunk_sums;
            for (size_t i = 0; i < chunks.count(); ++i) {
                int owner = int(i % size_t(runtime.ranks()));
                point_chunks.push_back(std::make_unique<mcl::rt::Matrix<float>>(
                    runtime, points.data() + chunks.first(i) * kDimensions, chunks.length(i), kDimensions, owner));
                members.push_back(std::make_unique<mcl::rt::Vector<int>>(runtime, membership.data() + chunks.first(i),
                                                                         chunks.length(i), owner));
                chunk_sums.push_back(
                    std::make_unique<mcl::rt::Matrix<float>>(runtime, sums[i].data(), kClusters, kDimensions, owner));
                chunk_counts.push_back(std::make_unique<mcl::rt::Vector<int>>(runtime, counts[i].data(), kClusters, owner));
            }
            mcl::examples::Placement placement(runtime, o);
            mcl::examples::Stopwatch stopwatch;
            for (int it = 0; it < o.iterations; ++it) {
                {
                    // This iteration's centroids, from rank 0; unregistered
                    // before the host moves them.
                    mcl::rt::Matrix<float> current(runtime, centroids.data(), kClusters, kDimensions, 0);
                    for (size_t i = 0; i < chunks.count(); ++i)
                        kmeans::submit(runtime, int(chunks.length(i)), kClusters, kDimensions, *members[i],
                                       *chunk_sums[i], *chunk_counts[i], *point_chunks[i], current, placement.next());
                    for (size_t i = 0; i < chunks.count(); ++i) {
                        chunk_sums[i]->start_gather();
                        chunk_counts[i]->start_gather();
                    }
                    for (size_t i = 0; i < chunks.count(); ++i) {
                        chunk_sums[i]->gather();
                        chunk_counts[i]->gather();
                    }
                }
                if (runtime.rank() == 0) move_centroids(centroids, sums, counts);
            }
            for (auto& m : members) m->start_gather();
            for (auto& m : members) m->gather();
            seconds = stopwatch.seconds();
        }
        bool ok = true;
        if (runtime.rank() == 0) {
            ok = mcl::examples::close("centroids", centroids.data(), expected_centroids.data(), centroids.size(),
                                      1e-3, 1e-3);
            // Summation order differs between versions: a point almost
            // equidistant from two centroids may go either way.
            size_t moved = 0;
            for (size_t i = 0; i < n; ++i) moved += membership[i] != expected_membership[i];
            if (moved > n / 1000) {
                std::cerr << "memberships: " << moved << " of " << n << " points differ from the reference\n";
                ok = false;
            }
        }
        return mcl::examples::finish(runtime, "runtime_kmeans", ok, seconds);
    } catch (const std::exception& e) {
        std::cerr << "runtime_kmeans: " << e.what() << "\n";
        return 1;
    }
}
