// The arguments of one kernel run as `mclc run` and `mclc verify` make them:
// seeded inputs at given sizes, checksums of the results, the comparison of
// two runs element by element, and the byte stream the backend harness
// reads and writes (BackendRunner.h).
//
// Inputs: every array (written ones too, since a kernel that writes part of
// an array leaves the rest as it was) and every scalar gets a value: int
// scalars from the sizes of the run, floats uniform in [-1, 1], int array
// elements in [0, smallest int scalar) so that data used as an index stays
// in range of arrays sized by the parameters, bytes in [0, 256), bools at
// random. The same seed and sizes give the same data.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "compiler/interpret/Interpreter.h"

namespace mcl::driver {

struct KernelData {
    std::vector<interpret::ParameterLayout> layouts;
    std::vector<interpret::StoragePtr> storages;  // one per parameter

    KernelData clone() const;  // a deep copy: runs must not share storage
};

// Values of the int scalar parameters of one run, in parameter order.
using Sizes = std::vector<std::pair<std::string, int64_t>>;

// Makes the data of one run: `sizes` names every int scalar parameter (the
// caller fills in defaults); `values` may give other scalars. Errors (a
// negative extent, a missing size) are returned located.
std::optional<interpret::InterpretError> make_kernel_data(const mcpl::Function& kernel, const Sizes& sizes,
                                                          const std::map<std::string, double>& values,
                                                          uint64_t seed, KernelData& data);

// "n=7 m=9" for messages.
std::string describe_sizes(const Sizes& sizes);

struct Tolerance {
    double relative = 1e-4;
    double absolute = 1e-5;
};

// Whether one cell of a result agrees with the reference's: equal for
// integers, poison and NaN, within `tolerance` for floating point.
bool cells_close(const interpret::Scalar& got, const interpret::Scalar& want, const Tolerance& tolerance);

// A seeded input cell as the file comment says: floats in [-1, 1], ints in
// [0, int_bound), bytes in [0, 256), bools at random.
interpret::Scalar random_cell(mcpl::Primitive type, std::mt19937_64& rng, int64_t int_bound);

// The first element of a written parameter where `got` differs from `want`.
struct Mismatch {
    std::string where;  // e.g. "c[3,17]"
    std::string got, want;
};
std::optional<Mismatch> compare_outputs(const KernelData& got, const KernelData& want, const Tolerance& tolerance);

// The first element of a written parameter computed from memory nothing wrote.
std::optional<std::string> first_poisoned_output(const KernelData& data);

// "c: 4096 elements, sum 12.5" per written parameter, a line each.
std::string output_checksums(const KernelData& data);

// The harness stream: per parameter its cell count, then each cell (8 bytes:
// int64 for int, byte and bool; double for float and double).
void write_cells(std::ostream& out, const KernelData& data);
// Reads a stream of the same layout back into `data`; false when it does not fit.
bool read_cells(std::istream& in, KernelData& data);

}  // namespace mcl::driver
