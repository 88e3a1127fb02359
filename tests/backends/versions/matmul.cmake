# End-to-end tests of the refined matmul versions (included by tests/CMakeLists.txt).
# Register-tiled version at x86_avx2 (cpp and opencl), its v2 (b packed
# into a scratch array, lanes vectorizable; cpp and opencl), and the
# shared-memory tiled version at hopper (opencl on PoCL through the glue's
# fallback).
mcl_end_to_end(matmul matmul/matmul_x86_avx2.mcl x86_avx2 cpp)
mcl_end_to_end(matmul matmul/matmul_x86_avx2.mcl x86_avx2 opencl)
mcl_end_to_end(matmul matmul/matmul_x86_avx2_v2.mcl x86_avx2 cpp)
mcl_end_to_end(matmul matmul/matmul_x86_avx2_v2.mcl x86_avx2 opencl)
mcl_end_to_end(matmul matmul/matmul_hopper.mcl hopper opencl)
