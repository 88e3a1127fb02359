// C++ reference for examples/spmv (spmv.mcl).
//
// y = A * x with A of nrows x ncols in CSR form: row r holds vals[e] in
// column cols[e] for rowptr[r] <= e < rowptr[r + 1]; rowptr has nrows + 1
// entries, cols and vals nnz. Accumulates in float in the kernel's order
// (e ascending), so results differ from generated code only through fused
// multiply-add contraction: compare with a relative tolerance.
#pragma once

#include <cstddef>

namespace mcl::examples {

inline void spmv_reference(int nrows, int ncols, int nnz, float* y,
                           const int* rowptr, const int* cols,
                           const float* vals, const float* x) {
    (void)ncols;  // sizes x; kept for the kernel's parameter order
    (void)nnz;    // sizes cols and vals
    for (int r = 0; r < nrows; ++r) {
        float sum = 0.0f;
        for (int e = rowptr[r]; e < rowptr[r + 1]; ++e) {
            sum += vals[e] * x[cols[e]];
        }
        y[r] = sum;
    }
}

}  // namespace mcl::examples
