// Shared by the spmv benchmarks: a random CSR matrix (rows with 8 to 24
// nonzeros at random columns, about 4.2 million nonzeros), x, and the C++
// reference result, built once.
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "spmv_reference.h"

namespace spmv_bench {

constexpr int kRows = 262144;
constexpr int kCols = 262144;

struct Problem {
    int nrows = kRows, ncols = kCols, nnz = 0;
    std::vector<int> rowptr, cols;
    std::vector<float> vals, x, want;
    Problem() {
        std::mt19937 rng(9);
        std::uniform_int_distribution<int> count(8, 24), col(0, ncols - 1);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        rowptr.push_back(0);
        for (int r = 0; r < nrows; ++r) {
            for (int e = count(rng); e > 0; --e) {
                cols.push_back(col(rng));
                vals.push_back(u(rng));
            }
            rowptr.push_back(static_cast<int>(cols.size()));
        }
        nnz = static_cast<int>(cols.size());
        x.resize(ncols);
        for (float& v : x) v = u(rng);
        want.resize(nrows);
        mcl::examples::spmv_reference(nrows, ncols, nnz, want.data(), rowptr.data(), cols.data(), vals.data(),
                                      x.data());
    }
};

inline const Problem& problem() {
    static const Problem p;
    return p;
}

inline std::string label(const Problem& p) {
    return "nrows=" + std::to_string(p.nrows) + " nnz=" + std::to_string(p.nnz);
}
inline double flops(const Problem& p) { return 2.0 * double(p.nnz); }

inline bool verify(benchmark::State& state, const float* got, const Problem& p) {
    return mcl::bench::verify(state, got, p.want.data(), std::size_t(p.nrows), 1e-4, 1e-4);
}

}  // namespace spmv_bench
