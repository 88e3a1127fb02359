// The tiled Cholesky graph (cholesky.cnc) on the MCL runtime: a symmetric
// positive definite 384 x 384 matrix in 6 x 6 tiles of 64 x 64, factored by
// potrf, trsm, syrk and gemm step instances, checked against LAPACK's
// spotrf (OpenBLAS) on the same matrix.
//
//   cnc_cholesky   (StarPU's variables pick the workers; runs under mpirun)
#include <cmath>
#include <iostream>
#include <vector>

#include "cholesky.h"
#include "runtime/common/RuntimeApp.h"

extern "C" void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info);

int main(int argc, char** argv) {
    try {
        mcl::rt::Runtime runtime(&argc, &argv);
        const int b = 64, tiles = 6, n = b * tiles;
        // A = M M^T / n + I: symmetric positive definite.
        std::vector<float> m = mcl::examples::random_values(size_t(n) * n, 9, -1, 1), a(size_t(n) * n);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j <= i; ++j) {
                double s = 0;
                for (int k = 0; k < n; ++k) s += double(m[size_t(i) * n + k]) * m[size_t(j) * n + k];
                a[size_t(i) * n + j] = a[size_t(j) * n + i] = float(s / n + (i == j ? 1.0 : 0.0));
            }
        // The environment's tiles A(0, i, j), i >= j, in the graph's order.
        std::vector<float> tiles_in, tiles_out(size_t(tiles) * (tiles + 1) / 2 * b * b, NAN);
        for (int i = 0; i < tiles; ++i)
            for (int j = 0; j <= i; ++j)
                for (int r = 0; r < b; ++r)
                    for (int c = 0; c < b; ++c) tiles_in.push_back(a[size_t(i * b + r) * n + j * b + c]);
        cholesky::Environment environment;
        environment.A = tiles_in.data();
        environment.L = tiles_out.data();
        mcl::examples::Stopwatch stopwatch;
        cholesky::run(runtime, environment);
        double seconds = stopwatch.seconds();

        bool ok = true;
        if (runtime.rank() == 0) {
            // LAPACK is column-major: the upper factor of the transpose is L.
            std::vector<float> expected = a;
            int info = 0;
            spotrf_("U", &n, expected.data(), &n, &info);
            if (info != 0) throw std::runtime_error("spotrf failed: " + std::to_string(info));
            std::vector<float> got(size_t(n) * n, 0.0f), want(size_t(n) * n, 0.0f);
            size_t t = 0;
            for (int i = 0; i < tiles; ++i)
                for (int j = 0; j <= i; ++j, ++t)
                    for (int r = 0; r < b; ++r)
                        for (int c = 0; c < b; ++c) {
                            size_t at = size_t(i * b + r) * n + j * b + c;
                            got[at] = tiles_out[(t * b + r) * b + c];
                            if (j * b + c <= i * b + r) want[at] = expected[at];
                        }
            ok = mcl::examples::close("L", got.data(), want.data(), got.size(), 1e-3, 1e-4);
        }
        return mcl::examples::finish(runtime, "cnc_cholesky", ok, seconds);
    } catch (const std::exception& e) {
        std::cerr << "cnc_cholesky: " << e.what() << "\n";
        return 1;
    }
}
