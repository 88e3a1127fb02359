// mcl-gen-graph: writes one random, well-defined CnC graph and the module of
// its steps (tests/difftest/GraphGenerator.h says what "well-defined"
// covers) into a folder: DIR/graph.cnc and DIR/steps.mcl, for
// `mclc verify -I DIR DIR/graph.cnc`. Deterministic per seed.
//
//   mcl-gen-graph --seed S --out DIR
#include "GraphGenerator.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace {

int usage() {
    std::cerr << "usage: mcl-gen-graph --seed S --out DIR\n";
    return 2;
}

bool write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
    return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t seed = 0;
    bool haveSeed = false;
    std::filesystem::path folder;
    for (int k = 1; k < argc; ++k) {
        std::string argument = argv[k];
        if (argument == "--seed" && k + 1 < argc) {
            char* end = nullptr;
            seed = std::strtoull(argv[++k], &end, 10);
            if (*end != '\0') return usage();
            haveSeed = true;
        } else if (argument == "--out" && k + 1 < argc) {
            folder = argv[++k];
        } else {
            return usage();
        }
    }
    if (!haveSeed || folder.empty()) return usage();
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    difftest::GeneratedGraph generated = difftest::generateGraph(seed);
    if (error || !write(folder / "graph.cnc", generated.graph) || !write(folder / "steps.mcl", generated.module)) {
        std::cerr << "mcl-gen-graph: cannot write into " << folder.string() << "\n";
        return 1;
    }
    return 0;
}
