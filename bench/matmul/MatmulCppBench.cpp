// matmul with the generated C++ backend (device "cpu", OpenMP): mcl_perfect
// (matmul.mcl at x86_avx2), mcl_x86_avx2 (register tiles) and mcl_x86_avx2_v2
// (b packed, lanes vectorized), with OpenBLAS cblas_sgemm as the reference
// in the same run. The cpp kernels run in the host process: "kernel".
// Compiled with MCL_BENCH_LLVM (matmul_llvm_bench), also each version through
// the llvm backend (device "llvm", modules renamed <version>_llvm), same
// sizes and iteration counts.
#include "MatmulData.h"
#include "matmul.h"
#include "matmul_x86_avx2.h"
#include "matmul_x86_avx2_v2.h"
#if MCL_BENCH_LLVM
#include "matmul_llvm.h"
#include "matmul_x86_avx2_llvm.h"
#include "matmul_x86_avx2_v2_llvm.h"
#endif

int main(int argc, char** argv) {
    using matmul_bench::add;
    using matmul_bench::host;
    add("matmul/cpu/openblas/kernel", host<matmul_bench::sgemm>, {512, 2048}, 3);
    add("matmul/cpu/mcl_perfect/kernel", host<matmul::matmul>, {512}, 2);
    add("matmul/cpu/mcl_x86_avx2/kernel", host<matmul_x86_avx2::matmul>, {512, 2048}, 1);
    add("matmul/cpu/mcl_x86_avx2_v2/kernel", host<matmul_x86_avx2_v2::matmul>, {512, 2048}, 3);
#if MCL_BENCH_LLVM
    add("matmul/llvm/mcl_perfect/kernel", host<matmul_llvm::matmul>, {512}, 2);
    add("matmul/llvm/mcl_x86_avx2/kernel", host<matmul_x86_avx2_llvm::matmul>, {512, 2048}, 1);
    add("matmul/llvm/mcl_x86_avx2_v2/kernel", host<matmul_x86_avx2_v2_llvm::matmul>, {512, 2048}, 3);
#endif
    return mcl::bench::run_benchmarks(argc, argv);
}
