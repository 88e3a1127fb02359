# End-to-end tests of the refined matmul versions (included by tests/CMakeLists.txt).
# Register-tiled version at x86_avx2 (cpp and opencl), its v2 (b packed
# into a scratch array, lanes vectorizable; cpp and opencl), and the
# shared-memory tiled versions at hopper (32 x 32 tiles; v2 with 8 x 8
# register tiles per thread; v3 with 16-byte shared loads; v4 with the next tile's loads in flight
# during the multiply-adds; v5 with k tiles 16 deep; v6 with two buffers per
# tile, the next one copied asynchronously by cuda): opencl on PoCL through the glue's fallback,
# cuda compiled (and run where a CUDA device is).
mcl_end_to_end(matmul matmul/matmul_x86_avx2.mcl x86_avx2 cpp)
mcl_end_to_end(matmul matmul/matmul_x86_avx2.mcl x86_avx2 opencl)
mcl_end_to_end(matmul matmul/matmul_x86_avx2_v2.mcl x86_avx2 cpp)
mcl_end_to_end(matmul matmul/matmul_x86_avx2_v2.mcl x86_avx2 opencl)
foreach(backend opencl cuda)
  mcl_end_to_end(matmul matmul/matmul_hopper.mcl hopper ${backend})
  mcl_end_to_end(matmul matmul/matmul_hopper_v2.mcl hopper ${backend})
  mcl_end_to_end(matmul matmul/matmul_hopper_v3.mcl hopper ${backend})
  mcl_end_to_end(matmul matmul/matmul_hopper_v4.mcl hopper ${backend})
  mcl_end_to_end(matmul matmul/matmul_hopper_v5.mcl hopper ${backend})
  mcl_end_to_end(matmul matmul/matmul_hopper_v6.mcl hopper ${backend})
endforeach()
