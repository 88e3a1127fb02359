// spmv through the generated glue against the reference, on random CSR
// matrices (rows with 0 to 9 nonzeros).
#include <vector>

#include "DriverSupport.h"
#include "spmv.h"
#include "spmv_reference.h"

int main() {
    mcl::test::Checker check("spmv");
    mcl::test::Random rng(8);
    struct Size { int nrows, ncols; };
    for (Size s : {Size{1, 1}, Size{1003, 517}}) {
        std::vector<int> rowptr{0}, cols;
        std::vector<float> vals;
        for (int r = 0; r < s.nrows; ++r) {
            int count = s.nrows == 1 ? 1 : rng.integer(0, 9);
            for (int e = 0; e < count; ++e) {
                cols.push_back(rng.integer(0, s.ncols - 1));
                vals.push_back(rng.uniform(-1, 1));
            }
            rowptr.push_back(static_cast<int>(cols.size()));
        }
        int nnz = static_cast<int>(cols.size());
        std::vector<float> x(s.ncols), y(s.nrows, -1.0f), want(s.nrows, -2.0f);
        for (float& v : x) v = rng.uniform(-1, 1);
        spmv::spmv(s.nrows, s.ncols, nnz, y.data(), rowptr.data(), cols.data(), vals.data(), x.data());
        mcl::examples::spmv_reference(s.nrows, s.ncols, nnz, want.data(), rowptr.data(), cols.data(), vals.data(),
                                      x.data());
        for (int i = 0; i < s.nrows; ++i) check.close("y", i, y[i], want[i], 1e-5, 1e-5);
    }
    return check.finish();
}
