// N-body simulation on the MCL runtime: every time step computes the
// accelerations of blocks of bodies against all bodies as tasks
// (nbody_accelerations; the perfect version on CPUs, the gpu version with
// tiles in local memory on GPUs), then the host moves the bodies (leapfrog).
// The positions after the steps are checked against the same simulation
// with the C++ reference kernel.
//
//   runtime_nbody [--size BODIES] [--chunk BLOCK] [--iterations STEPS] [--affinity CPU,GPU] [--static [--split CPU,GPU]]
#include <algorithm>
#include <iostream>
#include <memory>
#include <vector>

#include "../common/RuntimeApp.h"
#include "nbody.h"
#include "runtime/nbody/nbody_reference.h"

namespace {

constexpr float kSoftening = 0.01f, kTimeStep = 0.001f;

// Leapfrog: velocities from the accelerations, positions from the velocities.
void move_bodies(std::vector<float>& bodies, std::vector<float>& velocities, const std::vector<float>& acc) {
    for (size_t i = 0; i < velocities.size() / 3; ++i)
        for (int j = 0; j < 3; ++j) {
            velocities[i * 3 + j] += kTimeStep * acc[i * 3 + j];
            bodies[i * 4 + j] += kTimeStep * velocities[i * 3 + j];
        }
}

}  // namespace

int main(int argc, char** argv) {
    try {
        mcl::rt::Runtime runtime(&argc, &argv);
        mcl::examples::AppOptions o = mcl::examples::parse_options(argc, argv, 2053, 256, 3);
        const size_t n = size_t(o.size);
        const mcl::examples::Pieces blocks{n, size_t(o.tile)};
        std::vector<float> bodies = mcl::examples::random_values(n * 4, 11, -1, 1);
        for (size_t i = 0; i < n; ++i) bodies[i * 4 + 3] = 0.5f + 0.5f * std::abs(bodies[i * 4 + 3]);  // masses

        std::vector<float> expected = bodies, expected_velocities(n * 3), acc(n * 3);
        for (int step = 0; step < o.iterations; ++step) {
            for (size_t i = 0; i < blocks.count(); ++i)
                mcl::examples::nbody_accelerations_reference(int(n), int(blocks.length(i)), int(blocks.first(i)),
                                                             kSoftening, acc.data() + blocks.first(i) * 3,
                                                             expected.data());
            move_bodies(expected, expected_velocities, acc);
        }

        std::vector<float> velocities(n * 3);
        std::fill(acc.begin(), acc.end(), 0.0f);
        double seconds = 0;
        {
            std::vector<std::unique_ptr<mcl::rt::Matrix<float>>> block_acc;
            for (size_t i = 0; i < blocks.count(); ++i)
                block_acc.push_back(std::make_unique<mcl::rt::Matrix<float>>(
                    runtime, acc.data() + blocks.first(i) * 3, blocks.length(i), 3, int(i % size_t(runtime.ranks()))));
            mcl::examples::Placement placement(runtime, o);
            mcl::examples::Stopwatch stopwatch;
            for (int step = 0; step < o.iterations; ++step) {
                {
                    // This step's bodies, from rank 0; unregistered before the
                    // host moves them.
                    mcl::rt::Matrix<float> current(runtime, bodies.data(), n, 4, 0);
                    for (size_t i = 0; i < blocks.count(); ++i)
                        nbody::submit(runtime, int(n), int(blocks.length(i)), int(blocks.first(i)), kSoftening,
                                      *block_acc[i], current, placement.next());
                    for (auto& a : block_acc) a->start_gather();
                    for (auto& a : block_acc) a->gather();
                }
                if (runtime.rank() == 0) move_bodies(bodies, velocities, acc);
            }
            seconds = stopwatch.seconds();
        }
        bool ok = runtime.rank() != 0 ||
                  mcl::examples::close("positions", bodies.data(), expected.data(), bodies.size(), 1e-3, 1e-4);
        return mcl::examples::finish(runtime, "runtime_nbody", ok, seconds);
    } catch (const std::exception& e) {
        std::cerr << "runtime_nbody: " << e.what() << "\n";
        return 1;
    }
}
