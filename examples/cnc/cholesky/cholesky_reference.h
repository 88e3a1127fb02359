// C++ reference for examples/cnc/cholesky (cholesky_steps.mcl and
// cholesky_steps_gpu.mcl compute the same thing), in the kernels' parameter
// order. Tiles are b x b floats, row-major, each a separate array.
//
//   potrf_reference(b, a):        in-place Cholesky of a diagonal tile: reads
//                                 the lower triangle (diagonal included),
//                                 leaves a = L (lower triangle L, strict
//                                 upper triangle 0). Needs a symmetric
//                                 positive definite tile (a negative pivot
//                                 gives NaN, as in the kernel).
//   trsm_reference(b, a, l):      a := a * inv(L^T) (solves X L^T = A; reads
//                                 the lower triangle of l, non-zero diagonal).
//   syrk_reference(b, c, a):      c := c - a a^T on the full tile.
//   gemm_reference(b, c, a, bt):  c := c - a bt^T.
//
//   cholesky_tiled_reference(n, b, a): the right-looking tiled algorithm with
//   those tile functions on a row-major n x n symmetric positive definite
//   matrix (only its lower triangle is read), n a multiple of b; afterwards
//   a = L (the strict upper triangle is set to 0), so L L^T = A. For each
//   step k: potrf(A[k,k]); trsm(A[i,k], A[k,k]) for i > k; then syrk(A[i,i],
//   A[i,k]) and gemm(A[i,j], A[i,k], A[j,k]) for k < j < i. This is the
//   dependence structure a Concurrent Collections graph of the four step
//   kernels follows. To compare with LAPACK: LAPACKE_spotrf(LAPACK_ROW_MAJOR,
//   'L', n, a, n) gives the same L in the same layout (Fortran spotrf: uplo
//   'U' on the column-major view of this array); spotrf leaves the strict
//   upper triangle as it was, so compare the lower triangles.
//
// Every function accumulates in float in the kernels' order (each sum over k
// ascending, then subtracted; potrf left-looking with the diagonal last), so
// results differ from generated code only where a compiler contracts
// multiply-adds into fused ones or uses another sqrt: compare with a relative
// tolerance (errors grow with the condition number of the matrix).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace mcl::examples {

inline void potrf_reference(int b, float* a) {
    const auto sb = static_cast<std::size_t>(b);
    // Left-looking, column by column, as the kernel's launches: column j
    // uses the final columns k < j and the original diagonal element a[j,j].
    for (std::size_t j = 0; j < sb; ++j) {
        for (std::size_t i = 0; i < sb; ++i) {
            if (i > j) {
                float d = a[j * sb + j];
                float s = a[i * sb + j];
                for (std::size_t k = 0; k < j; ++k) {
                    d -= a[j * sb + k] * a[j * sb + k];
                    s -= a[i * sb + k] * a[j * sb + k];
                }
                a[i * sb + j] = s / std::sqrt(d);
            } else if (i < j) {
                a[i * sb + j] = 0.0f;
            }
        }
    }
    for (std::size_t i = 0; i < sb; ++i) {
        float d = a[i * sb + i];
        for (std::size_t k = 0; k < i; ++k) d -= a[i * sb + k] * a[i * sb + k];
        a[i * sb + i] = std::sqrt(d);
    }
}

inline void trsm_reference(int b, float* a, const float* l) {
    const auto sb = static_cast<std::size_t>(b);
    for (std::size_t i = 0; i < sb; ++i) {
        for (std::size_t j = 0; j < sb; ++j) {
            float s = a[i * sb + j];
            for (std::size_t k = 0; k < j; ++k) s -= a[i * sb + k] * l[j * sb + k];
            a[i * sb + j] = s / l[j * sb + j];
        }
    }
}

inline void syrk_reference(int b, float* c, const float* a) {
    const auto sb = static_cast<std::size_t>(b);
    for (std::size_t i = 0; i < sb; ++i) {
        for (std::size_t j = 0; j < sb; ++j) {
            float sum = 0.0f;
            for (std::size_t k = 0; k < sb; ++k) sum += a[i * sb + k] * a[j * sb + k];
            c[i * sb + j] -= sum;
        }
    }
}

inline void gemm_reference(int b, float* c, const float* a, const float* bt) {
    const auto sb = static_cast<std::size_t>(b);
    for (std::size_t i = 0; i < sb; ++i) {
        for (std::size_t j = 0; j < sb; ++j) {
            float sum = 0.0f;
            for (std::size_t k = 0; k < sb; ++k) sum += a[i * sb + k] * bt[j * sb + k];
            c[i * sb + j] -= sum;
        }
    }
}

// The tiled driver: n a multiple of b (b >= 1). Copies the lower tiles of a
// into separate b x b arrays, runs the step functions and copies L back.
inline void cholesky_tiled_reference(int n, int b, float* a) {
    const auto sn = static_cast<std::size_t>(n);
    const auto sb = static_cast<std::size_t>(b);
    const std::size_t nt = sn / sb;
    std::vector<std::vector<float>> tiles(nt * nt);
    auto tile = [&](std::size_t i, std::size_t j) -> float* { return tiles[i * nt + j].data(); };
    for (std::size_t ti = 0; ti < nt; ++ti) {
        for (std::size_t tj = 0; tj <= ti; ++tj) {
            tiles[ti * nt + tj].resize(sb * sb);
            for (std::size_t r = 0; r < sb; ++r)
                for (std::size_t c = 0; c < sb; ++c)
                    tile(ti, tj)[r * sb + c] = a[(ti * sb + r) * sn + tj * sb + c];
        }
    }
    for (std::size_t k = 0; k < nt; ++k) {
        potrf_reference(b, tile(k, k));
        for (std::size_t i = k + 1; i < nt; ++i) trsm_reference(b, tile(i, k), tile(k, k));
        for (std::size_t i = k + 1; i < nt; ++i) {
            syrk_reference(b, tile(i, i), tile(i, k));
            for (std::size_t j = k + 1; j < i; ++j) gemm_reference(b, tile(i, j), tile(i, k), tile(j, k));
        }
    }
    for (std::size_t ti = 0; ti < nt; ++ti) {
        for (std::size_t tj = 0; tj < nt; ++tj) {
            for (std::size_t r = 0; r < sb; ++r)
                for (std::size_t c = 0; c < sb; ++c)
                    a[(ti * sb + r) * sn + tj * sb + c] = tj <= ti ? tile(ti, tj)[r * sb + c] : 0.0f;
        }
    }
}

}  // namespace mcl::examples
