// mcl-gen-program: prints one random, well-defined MCPL module with one
// exported kernel `compute` (tests/difftest/ProgramGenerator.cpp says what
// "well-defined" covers). Deterministic per seed and level.
//
//   mcl-gen-program --seed S [--level perfect|gpu] [--no-parameter-views] [--plain-names] [--no-atomics] [--no-constant-counts] [--no-doubles] [--no-early-returns]
#include "ProgramGenerator.h"

#include <cstdlib>
#include <iostream>
#include <string>

namespace {

int usage() {
    std::cerr << "usage: mcl-gen-program --seed S [--level perfect|gpu] [--no-parameter-views] [--plain-names] [--no-atomics] [--no-constant-counts] [--no-doubles] [--no-early-returns]\n";
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    difftest::GeneratorOptions options;
    bool haveSeed = false;
    for (int k = 1; k < argc; ++k) {
        std::string argument = argv[k];
        if (argument == "--seed" && k + 1 < argc) {
            char* end = nullptr;
            options.seed = std::strtoull(argv[++k], &end, 10);
            if (*end != '\0') return usage();
            haveSeed = true;
        } else if (argument == "--level" && k + 1 < argc) {
            std::string level = argv[++k];
            if (level == "perfect") options.level = difftest::Level::Perfect;
            else if (level == "gpu") options.level = difftest::Level::Gpu;
            else return usage();
        } else if (argument == "--no-parameter-views") {
            options.parameterViews = false;
        } else if (argument == "--plain-names") {
            options.capturableNames = false;
        } else if (argument == "--no-atomics") {
            options.atomics = false;
        } else if (argument == "--no-constant-counts") {
            options.constantCounts = false;
        } else if (argument == "--no-doubles") {
            options.doubles = false;
        } else if (argument == "--no-early-returns") {
            options.earlyReturns = false;
        } else {
            return usage();
        }
    }
    if (!haveSeed) return usage();
    std::cout << difftest::generateProgram(options);
    return 0;
}
