// Random: the pseudo-random stream of mcl-gen-program. SplitMix64 with
// hand-written range reductions, so that one seed gives the same program on
// every platform and standard library (the std distributions are not
// specified bit for bit).
#pragma once

#include <cstdint>
#include <vector>

namespace difftest {

class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    // uniform in [0, count), count > 0
    int below(int count) { return static_cast<int>(next() % static_cast<std::uint64_t>(count)); }

    // uniform in [lo, hi]
    int between(int lo, int hi) { return lo + below(hi - lo + 1); }

    bool chance(int percent) { return below(100) < percent; }

    template <class T>
    const T& pick(const std::vector<T>& items) { return items[static_cast<std::size_t>(below(static_cast<int>(items.size())))]; }

private:
    std::uint64_t state_;
};

} // namespace difftest
