// Helpers for the backend tests: check MCPL text, translate it to a leaf and
// run a backend with the built-in (or a given) target configuration.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backends/Backend.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::backends::testing {

struct Generated {
    mcpl::testing::CheckedText checked;
    std::vector<GeneratedFile> files;

    std::string diagnostics() const { return checked.text(); }
    // The text of a generated file ("" when there is none of that name).
    std::string file(const std::string& name) const;
};

// Checks `text`, translates it to `leaf` and generates with `backend`, using
// `config_text` as the leaf's configuration or, when empty, the built-in one.
Generated generate(const std::string& text, const std::string& leaf = "x86_avx2",
                   const std::string& backend = "cpp", const std::string& config_text = "");

// A hopper kernel (module two) of two top-level foreach loops, the first
// over a block count the host computes (halfN), for the tests of both grid
// backends.
inline const char* const kTwoLaunchesKernel = R"(module two;
import hopper;
hopper void k(int n, float[n] x) {
    const int halfN = divide_up(n, 2);
    foreach (int b in halfN blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        if (t == 0) { x[b] = 1.0; } } } }
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        if (t == 0) { x[b] += 1.0; } } } }
}
)";

// A hopper kernel (module scr) with arrays in device memory declared for the
// whole kernel (copy), per block (row) and per thread (mine), for the tests
// of both grid backends.
inline const char* const kScratchArraysKernel = R"(module scr;
import hopper;
hopper void k(int n, float[n, 32] x) {
    global float[n, 32] copy;
    foreach (int b in n blocks) {
        global float[32] row;
        foreach (int w in 1 warps) { foreach (int t in 32 threads) {
            global float[2] mine;
            mine[0] = x[b, t];
            row[t] = mine[0];
            copy[b, t] = row[t];
        } }
    }
    foreach (int b in n blocks) { foreach (int w in 1 warps) { foreach (int t in 32 threads) {
        x[b, t] = copy[b, t];
    } } }
}
)";

}  // namespace mcl::backends::testing
