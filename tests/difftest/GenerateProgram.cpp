// mcl-gen-program: prints one random, well-defined MCPL module with one
// exported kernel `compute` (tests/difftest/ProgramGenerator.cpp says what
// "well-defined" covers). Deterministic per seed and level.
//
//   mcl-gen-program --seed S [--level perfect|gpu] [--no-... | --plain-names]
// (the flags that each leave one construct out; the usage message lists them)
#include "ProgramGenerator.h"

#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

namespace {

int usage(const std::map<std::string, bool*>& withouts) {
    std::cerr << "usage: mcl-gen-program --seed S [--level perfect|gpu]";
    for (const auto& without : withouts) std::cerr << " [" << without.first << "]";
    std::cerr << "\n";
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    difftest::GeneratorOptions options;
    // the flags that leave a construct out
    const std::map<std::string, bool*> withouts = {{"--no-parameter-views", &options.parameterViews},
                                                   {"--plain-names", &options.capturableNames},
                                                   {"--no-atomics", &options.atomics},
                                                   {"--no-constant-counts", &options.constantCounts},
                                                   {"--no-module-constants", &options.moduleConstants},
                                                   {"--no-doubles", &options.doubles},
                                                   {"--no-early-returns", &options.earlyReturns},
                                                   {"--no-unit-returns", &options.unitReturns},
                                                   {"--no-compound-updates", &options.compoundUpdates},
                                                   {"--no-bytes", &options.bytes},
                                                   {"--no-powers", &options.powers},
                                                   {"--no-bitwise", &options.bitwise},
                                                   {"--no-loop-steps", &options.loopSteps},
                                                   {"--no-array-arguments", &options.arrayArguments},
                                                   {"--no-as-statements", &options.asStatements},
                                                   {"--no-uniform-ifs", &options.uniformIfs},
                                                   {"--no-barrier-functions", &options.barrierFunctions},
                                                   {"--no-phase-reads", &options.phaseReads},
                                                   {"--no-copy-fills", &options.copyFills},
                                                   {"--no-sibling-depths", &options.siblingDepths},
                                                   {"--no-shorter-siblings", &options.shorterSiblings},
                                                   {"--no-imperfect-nests", &options.imperfectNests},
                                                   {"--no-kernel-calls", &options.kernelCalls},
                                                   {"--no-hiding-locals", &options.hidingLocals},
                                                   {"--no-array-swaps", &options.arraySwaps},
                                                   {"--no-record-arrays", &options.recordArrays},
                                                   {"--no-exact-floats", &options.exactFloats},
                                                   {"--no-double-arrays", &options.doubleArrays},
                                                   {"--no-halfway-literals", &options.halfwayLiterals},
                                                   {"--no-write-only-outputs", &options.writeOnlyOutputs},
                                                   {"--no-math-functions", &options.mathFunctions},
                                                   {"--no-strided-sums", &options.stridedSums}};
    bool haveSeed = false;
    for (int k = 1; k < argc; ++k) {
        std::string argument = argv[k];
        if (argument == "--seed" && k + 1 < argc) {
            char* end = nullptr;
            options.seed = std::strtoull(argv[++k], &end, 10);
            if (*end != '\0') return usage(withouts);
            haveSeed = true;
        } else if (argument == "--level" && k + 1 < argc) {
            std::string level = argv[++k];
            if (level == "perfect") options.level = difftest::Level::Perfect;
            else if (level == "gpu") options.level = difftest::Level::Gpu;
            else return usage(withouts);
        } else if (auto without = withouts.find(argument); without != withouts.end()) {
            *without->second = false;
        } else {
            return usage(withouts);
        }
    }
    if (!haveSeed) return usage(withouts);
    std::cout << difftest::generateProgram(options);
    return 0;
}
