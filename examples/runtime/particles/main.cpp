// Particles as records on the MCL runtime: the particles (a record of a
// byte, two float[3] arrays, a double and an int: C padding inside) are cut
// into chunks, and each step advances every chunk in one task (advance; the
// perfect version on CPUs, the gpu version on GPUs), from one set of chunks
// into the other, with the step's parameters a record passed by value. The
// result (every field of every particle, and the energies of the last step)
// is checked against the same steps computed here in C++.
//
//   runtime_particles [--size PARTICLES] [--chunk C] [--iterations STEPS] [--affinity CPU,GPU] [--static [--split CPU,GPU]]
#include <cmath>
#include <iostream>
#include <memory>
#include <vector>

#include "../common/RuntimeApp.h"
#include "particles.h"

namespace {

using particles::Particle;
using particles::Step;

// One step of advance.mcl for one particle, in the kernel's order of operations.
double advance_reference(const Step& step, const Particle& before, Particle& after) {
    after.kind = before.kind;
    after.mass = before.mass;
    after.steps = before.steps + 1;
    double kinetic = 0.0;
    for (int d = 0; d < 3; ++d) {
        float v = before.velocity[d] + step.dt * step.gravity[d];
        after.velocity[d] = v;
        after.position[d] = before.position[d] + step.dt * v;
        kinetic += double(v) * double(v);
    }
    return 0.5 * before.mass * kinetic;
}

bool near(double got, double expected) { return std::fabs(got - expected) <= 1e-4 + 1e-4 * std::fabs(expected); }

// Whether every field of every particle and every energy agrees with the
// reference (floats within rounding: a device may contract a * b + c).
bool agree(const std::vector<Particle>& got, const std::vector<Particle>& expected, const std::vector<double>& energy,
           const std::vector<double>& expected_energy) {
    for (size_t i = 0; i < got.size(); ++i) {
        const Particle &g = got[i], &e = expected[i];
        bool same = g.kind == e.kind && g.steps == e.steps && g.mass == e.mass && near(energy[i], expected_energy[i]);
        for (int d = 0; d < 3; ++d) same = same && near(g.position[d], e.position[d]) && near(g.velocity[d], e.velocity[d]);
        if (!same) {
            std::cerr << "particle " << i << ": kind " << int(g.kind) << " steps " << g.steps << " mass " << g.mass
                      << " position " << g.position[0] << " energy " << energy[i] << "; expected kind " << int(e.kind)
                      << " steps " << e.steps << " mass " << e.mass << " position " << e.position[0] << " energy "
                      << expected_energy[i] << "\n";
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        mcl::rt::Runtime runtime(&argc, &argv);
        mcl::examples::AppOptions o = mcl::examples::parse_options(argc, argv, 10007, 1000, 4);
        const size_t n = size_t(o.size);
        const mcl::examples::Pieces chunks{n, size_t(o.tile)};
        std::vector<float> values = mcl::examples::random_values(n * 7, 11, -10, 10);
        std::vector<Particle> initial(n);
        for (size_t i = 0; i < n; ++i) {
            Particle& p = initial[i];
            p.kind = static_cast<unsigned char>(i % 251);
            for (int d = 0; d < 3; ++d) {
                p.position[d] = values[i * 7 + size_t(d)];
                p.velocity[d] = values[i * 7 + 3 + size_t(d)];
            }
            p.mass = 1.0 + std::fabs(double(values[i * 7 + 6]));
            p.steps = int(i % 3);
        }
        const Step step{0.01f, {0.0f, -9.81f, 0.5f}};

        // The reference: the same steps, from one set into the other.
        std::vector<Particle> expected[2] = {initial, initial};
        std::vector<double> expected_energy(n);
        for (int it = 0; it < o.iterations; ++it)
            for (size_t i = 0; i < n; ++i)
                expected_energy[i] = advance_reference(step, expected[it % 2][i], expected[(it + 1) % 2][i]);

        std::vector<Particle> sets[2] = {initial, initial};
        std::vector<double> energy(n);
        double seconds = 0;
        {
            // Chunks are spread over the ranks in turn under MPI.
            std::vector<std::unique_ptr<mcl::rt::Vector<Particle>>> set_chunks[2];
            std::vector<std::unique_ptr<mcl::rt::Vector<double>>> energy_chunks;
            for (size_t i = 0; i < chunks.count(); ++i) {
                int owner = int(i % size_t(runtime.ranks()));
                for (auto s : {0, 1})
                    set_chunks[s].push_back(std::make_unique<mcl::rt::Vector<Particle>>(
                        runtime, sets[s].data() + chunks.first(i), chunks.length(i), owner));
                energy_chunks.push_back(std::make_unique<mcl::rt::Vector<double>>(
                    runtime, energy.data() + chunks.first(i), chunks.length(i), owner));
            }
            mcl::examples::Placement placement(runtime, o);
            mcl::examples::Stopwatch stopwatch;
            for (int it = 0; it < o.iterations; ++it)
                for (size_t i = 0; i < chunks.count(); ++i)
                    particles::submit(runtime, int(chunks.length(i)), step, *set_chunks[it % 2][i],
                                      *set_chunks[(it + 1) % 2][i], *energy_chunks[i], placement.next());
            for (auto s : {0, 1})
                for (auto& c : set_chunks[s]) c->start_gather();
            for (auto& c : energy_chunks) c->start_gather();
            for (auto s : {0, 1})
                for (auto& c : set_chunks[s]) c->gather();
            for (auto& c : energy_chunks) c->gather();
            seconds = stopwatch.seconds();
        }
        bool ok = true;
        if (runtime.rank() == 0)
            for (auto s : {0, 1}) ok = ok && agree(sets[s], expected[s], energy, expected_energy);
        return mcl::examples::finish(runtime, "runtime_particles", ok, seconds);
    } catch (const std::exception& e) {
        std::cerr << "runtime_particles: " << e.what() << "\n";
        return 1;
    }
}
