// ProgramGenerator: writes one random MCPL module with one exported kernel,
// well-defined by construction (see ProgramGenerator.cpp for the rules it
// keeps). The same options always give the same text.
#pragma once

#include <cstdint>
#include <string>

namespace difftest {

enum class Level { Perfect, Gpu };

struct GeneratorOptions {
    std::uint64_t seed = 0;
    Level level = Level::Perfect;
    bool parameterViews = true; // `as` views of parameters (const float[n, 3] in6 as float[n * 3] in6flat)
    bool capturableNames = true; // now and then a name generated code could capture (NAN, kernel, gpu, b_i)
    bool atomics = true;         // now and then histograms updated with lib.atomics' atomicAddInt (needs -I examples)
    bool constantCounts = true;  // now and then an output of constant extent and nests over that count
    bool moduleConstants = true; // now and then that count, or a block's thread count, a module-level constant
    bool doubles = true;         // now and then float arithmetic in double precision (toDouble, toFloat)
    bool earlyReturns = true;    // now and then a device function returns early, under an if
    bool unitReturns = true;     // now and then a unit of a foreach returns early, and the others do more
    bool compoundUpdates = true; // now and then -=, %=, >>=, *= on ints, and an if's condition in a bool
    bool bytes = true;           // now and then byte arrays (an input, an output stored modulo 256) and byte locals
    bool powers = true;          // now and then `a ^ b`: ints to small powers, floats squared or to the power 0.5
    bool bitwise = true;         // now and then `a & b`, `a | b` of non-negative ints, and `<<=`
    bool loopSteps = true;       // now and then a for loop that steps by += c, /= 2, >>= 1, *= 2 or <<= 1
    bool arrayArguments = true;  // now and then a device function that takes a float array (global, local or private)
    bool asStatements = true;    // now and then `x as float[n * m] w;` of an input or private array, read (and written) through w
    bool uniformIfs = true;      // gpu: now and then an if on a block index or a size, with barriers inside
    bool barrierFunctions = true; // gpu: now and then a device function with barriers (a value exchanged through a local array), called by every thread of a block
    bool phaseReads = true;       // gpu: now and then a block's second thread loop reads its local arrays across threads at once
    bool copyFills = true;        // gpu: now and then a thread fills its local slot with an input element (plain, or zero where a condition fails), with work before the barrier: the cuda backend's asynchronous copies
    bool siblingDepths = true;    // gpu: now and then the sibling of a 2-D thread nest is one loop over as many threads, the two indices computed from its one
    bool shorterSiblings = true;  // gpu: now and then a block's sibling thread loop runs fewer threads in one dimension than the first
    bool imperfectNests = true;   // perfect: now and then a 2-D nest with declarations between its two foreach loops, read by the inner units
    bool kernelCalls = true;      // now and then the exported kernel only calls the generated one, a kernel of the same level, passing its own renamed parameters (some named like a module constant)
    bool hidingLocals = true;     // now and then a block whose local hides a name an array's inner extent reads (a size, a constant), the array read inside
    bool arraySwaps = true;       // now and then two private arrays of one shape swapped whole (`p <=> q`), views made before keeping their storage, or tiles of private arrays (`p[1] <=> q[0]`)
    bool writeOnlyOutputs = true; // now and then a last output only its own nest writes, every element (blocks of threads and a guard, ...) or nearly (a near miss)
    bool exactFloats = true;      // now and then floats that no engine rounds (toFloat(i) / 4.0, an input element * 8.0, floor, ceil, fabs, fmin, fmax of lib.math) compared and converted by toInt; fabs, fmin and fmax of any float
    bool doubleArrays = true;     // now and then arrays of doubles (an input, an output, private, local and scratch arrays): arithmetic on their elements in double precision, stored back into floats
    bool halfwayLiterals = true;  // now and then a float literal spelt just past halfway between two floats (1.500000059604644775390625000001): rounded once to a float it is the upper one, through a double the lower
    bool mathFunctions = true;    // now and then an output of lib.math's exp, log2, sin, erf, native_exp, ... of exact arguments
    bool stridedSums = true;      // now and then an output of each thread's sum over in0 striding by its block's thread count, under a guard (`j = k * T + t; if (j < n)`)
    bool recordArrays = true;     // now and then the record R also has a byte and two float[2] fields (C padding), written whole, read and swapped (`r.v <=> r.w`)
};

// The MCPL text of the module for these options.
std::string generateProgram(const GeneratorOptions& options);

} // namespace difftest
