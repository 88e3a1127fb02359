// Tiled matrix multiplication on the MCL runtime: C += A * B with every
// tile product C(i,j) += A(i,k) * B(k,j) a task of the matmul kernel, whose
// versions (examples/matmul/*.mcl) run where they fit best: the x86_avx2
// version on CPU workers, the hopper version on H100s, the gpu version on
// other GPUs (versions.txt beside the generated code). The tasks of one
// C tile are ordered by their read-write use of it; the rest run in
// parallel over the workers.
//
//   runtime_matmul [--size N] [--tile T] [--affinity CPU,GPU] [--static [--split CPU,GPU]]
#include <iostream>
#include <vector>

#include "../common/RuntimeApp.h"
#include "matmul.h"
#include "matmul/matmul_reference.h"

int main(int argc, char** argv) {
    try {
        mcl::rt::Runtime runtime(&argc, &argv);
        mcl::examples::AppOptions o = mcl::examples::parse_options(argc, argv, 300, 64, 1);
        size_t n = static_cast<size_t>(o.size), m = n + 17, p = n - 13;  // not multiples of the tile
        std::vector<float> a = mcl::examples::random_values(n * p, 1), b = mcl::examples::random_values(p * m, 2);
        std::vector<float> c = mcl::examples::random_values(n * m, 3);
        std::vector<float> expected = c;
        mcl::examples::matmul_reference(int(n), int(m), int(p), expected.data(), a.data(), b.data());
        double seconds = 0;
        {
            size_t t = static_cast<size_t>(o.tile);
            mcl::rt::TiledMatrix<float> A(runtime, a.data(), n, p, t, t), B(runtime, b.data(), p, m, t, t),
                C(runtime, c.data(), n, m, t, t);
            mcl::examples::Placement placement(runtime, o);
            mcl::examples::Stopwatch stopwatch;
            for (size_t k = 0; k < A.tile_cols_count(); ++k)
                for (size_t i = 0; i < C.tile_rows_count(); ++i)
                    for (size_t j = 0; j < C.tile_cols_count(); ++j)
                        matmul::submit(runtime, int(C.tile_height(i)), int(C.tile_width(j)), int(A.tile_width(k)),
                                       C.tile(i, j), A.tile(i, k), B.tile(k, j), placement.next());
            runtime.wait_all();
            C.gather();
            seconds = stopwatch.seconds();
        }
        bool ok = runtime.rank() != 0 || mcl::examples::close("C", c.data(), expected.data(), n * m, 1e-4, 1e-4);
        return mcl::examples::finish(runtime, "runtime_matmul", ok, seconds);
    } catch (const std::exception& e) {
        std::cerr << "runtime_matmul: " << e.what() << "\n";
        return 1;
    }
}
