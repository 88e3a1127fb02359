// Shared by the end-to-end test drivers (tests/backends/drivers/*_main.cpp):
// deterministic inputs and a tolerant comparison that prints what differs.
// Each driver calls the generated host glue and the C++ reference of its
// example on the same inputs and exits nonzero when the results differ; the
// errors the glue must throw are checked with throws_with.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "mcl_runtime.h"

namespace mcl::test {

// A small linear congruential generator: the same inputs on every machine.
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed * 6364136223846793005ULL + 1442695040888963407ULL) {}
    uint32_t next() {
        state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state_ >> 33);
    }
    float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() % 1000000) / 1e6f; }
    int integer(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<uint32_t>(hi - lo + 1)); }

private:
    uint64_t state_;
};

class Checker {
public:
    explicit Checker(std::string name) : name_(std::move(name)) {}

    // got and want agree when |got - want| <= abs_tol + rel_tol * |want|.
    void close(const std::string& what, long index, double got, double want, double abs_tol, double rel_tol) {
        ++compared_;
        if (std::fabs(got - want) <= abs_tol + rel_tol * std::fabs(want)) return;
        if (++failures_ <= 10)
            std::printf("%s: %s[%ld] = %.9g, reference %.9g\n", name_.c_str(), what.c_str(), index, got, want);
    }
    void exact(const std::string& what, long index, long got, long want) {
        ++compared_;
        if (got == want) return;
        if (++failures_ <= 10) std::printf("%s: %s[%ld] = %ld, reference %ld\n", name_.c_str(), what.c_str(), index, got, want);
    }
    // Prints PASS or FAIL; the exit status of the driver.
    int finish() const {
        std::printf("%s: %s (%ld values compared, %ld differ)\n", name_.c_str(), failures_ ? "FAIL" : "PASS",
                    compared_, failures_);
        return failures_ || compared_ == 0 ? 1 : 0;
    }

private:
    std::string name_;
    long compared_ = 0;
    long failures_ = 0;
};

// Runs `call`; true when it throws an mcl::Error whose text has every part.
template <typename Call>
bool throws_with(const char* what, Call call, std::vector<std::string> parts) {
    try {
        call();
    } catch (const mcl::Error& e) {
        std::string text = e.what();
        for (const std::string& p : parts) {
            if (text.find(p) == std::string::npos) {
                std::printf("%s: the error lacks '%s': %s\n", what, p.c_str(), text.c_str());
                return false;
            }
        }
        std::printf("%s: mcl::Error as expected: %s\n", what, text.substr(0, text.find('\n')).c_str());
        return true;
    }
    std::printf("%s: no mcl::Error was thrown\n", what);
    return false;
}

}  // namespace mcl::test
