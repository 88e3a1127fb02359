// What the runtime examples share: their command line, the placement of a
// submitted call (dynamic, an affinity hint or a static binding), the check
// against a C++ reference and the report of where the tasks ran.
//
// Options: --size N, --tile T (or --chunk C), --iterations I,
//   --affinity CPU,GPU (CnC-HC's `@ CPU = a, GPU = b`), --static (calls bound
//   to the workers in turn, in proportion to --split CPU,GPU when given).
// StarPU's own variables choose the workers: STARPU_NCPU, STARPU_NOPENCL.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "mcl_starpu.h"

namespace mcl::examples {

struct AppOptions {
    long size = 0;
    long tile = 0;
    int iterations = 0;
    bool use_affinity = false;
    mcl::rt::Affinity affinity;
    bool static_binding = false;
    std::vector<int> split;  // with --static: calls per CPU worker and per OpenCL worker in each round
};

// The options, with defaults for the size, the tile and the iterations.
inline AppOptions parse_options(int argc, char** argv, long size, long tile, int iterations) {
    AppOptions o;
    o.size = size;
    o.tile = tile;
    o.iterations = iterations;
    auto value = [&](int& i) -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument(std::string(argv[i]) + " needs a value");
        return argv[++i];
    };
    auto pair = [](const std::string& text) {
        size_t comma = text.find(',');
        if (comma == std::string::npos) throw std::invalid_argument("'" + text + "' is not A,B");
        return std::vector<int>{std::stoi(text.substr(0, comma)), std::stoi(text.substr(comma + 1))};
    };
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--size") o.size = std::stol(value(i));
        else if (a == "--tile" || a == "--chunk") o.tile = std::stol(value(i));
        else if (a == "--iterations") o.iterations = std::stoi(value(i));
        else if (a == "--affinity") {
            std::vector<int> w = pair(value(i));
            o.use_affinity = true;
            o.affinity = {w[0], w[1]};
        } else if (a == "--static") o.static_binding = true;
        else if (a == "--split") o.split = pair(value(i));
        else throw std::invalid_argument("unknown option '" + a + "'");
    }
    if (o.size <= 0 || o.tile <= 0 || o.iterations <= 0)
        throw std::invalid_argument("--size, --tile and --iterations must be positive");
    return o;
}

// `total` elements cut into pieces of `size`, the last one shorter when
// `size` does not divide `total`: what one task works on.
struct Pieces {
    size_t total;
    size_t size;

    size_t count() const { return (total + size - 1) / size; }
    size_t first(size_t i) const { return i * size; }
    size_t length(size_t i) const { return std::min(size, total - i * size); }
};

// Where each submitted call goes: the scheduler, an affinity hint, or the
// workers in turn (a static binding for comparison).
class Placement {
public:
    Placement(const mcl::rt::Runtime& runtime, const AppOptions& options) : options_(options) {
        if (!options.static_binding) return;
        std::vector<int> per_kind = options.split.empty() ? std::vector<int>{1, 1} : options.split;
        for (const mcl::rt::WorkerInfo& w : runtime.workers())
            for (int k = 0; k < per_kind[w.kind == mcl::rt::WorkerKind::cpu ? 0 : 1]; ++k) order_.push_back(w.id);
        if (order_.empty()) throw std::invalid_argument("--split leaves no worker");
    }

    mcl::rt::SubmitOptions next() {
        mcl::rt::SubmitOptions s;
        if (options_.use_affinity) s.affinity = &options_.affinity;
        if (!order_.empty()) s.worker = order_[next_++ % order_.size()];
        return s;
    }

private:
    const AppOptions& options_;
    std::vector<int> order_;
    size_t next_ = 0;
};

inline std::vector<float> random_values(size_t count, unsigned seed, float low = -1, float high = 1) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> d(low, high);
    std::vector<float> v(count);
    for (float& x : v) x = d(gen);
    return v;
}

// True when every element is within atol + rtol * |expected|; prints the
// worst element otherwise.
inline bool close(const std::string& what, const float* got, const float* expected, size_t count, double rtol,
                  double atol) {
    size_t worst = 0;
    double worst_excess = 0;
    for (size_t i = 0; i < count; ++i) {
        double diff = std::fabs(double(got[i]) - double(expected[i]));
        double allowed = atol + rtol * std::fabs(double(expected[i]));
        if (!(diff <= allowed) && (diff - allowed > worst_excess || worst_excess == 0)) {
            worst = i;
            worst_excess = std::isnan(diff) ? 1e300 : diff - allowed;
        }
    }
    if (worst_excess == 0) return true;
    std::cerr << what << ": element " << worst << " is " << got[worst] << ", the reference " << expected[worst]
              << "\n";
    return false;
}

// Seconds since construction (the task phase of an application, which
// bench/runtime/run.py reads).
class Stopwatch {
public:
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Prints the tasks per device and version and the task phase's time, then
// PASS or FAIL (rank 0 judges).
inline int finish(const mcl::rt::Runtime& runtime, const std::string& app, bool ok, double seconds) {
    runtime.print_summary(std::cout);
    if (runtime.rank() != 0) return 0;
    std::cout << app << ": tasks took " << seconds << " s\n";
    std::cout << app << ": " << (ok ? "PASS (matches the C++ reference)" : "FAIL (differs from the C++ reference)")
              << std::endl;
    return ok ? 0 : 1;
}

}  // namespace mcl::examples
