# End-to-end tests of the refined spmv versions (included by tests/CMakeLists.txt).
# spmv_x86 (x86_avx2 level): the generated C++ and OpenCL on PoCL.
foreach(backend cpp opencl)
  mcl_end_to_end(spmv spmv/spmv_x86.mcl x86_avx2 ${backend})
endforeach()
# spmv_gpu and its v2 (8 threads a row) (gpu level): OpenCL at the GPU
# leaves, run on PoCL through the glue's fallback to any OpenCL device;
# cuda compiled (and run where a CUDA device is).
foreach(target hopper fermi)
  mcl_end_to_end(spmv spmv/spmv_gpu.mcl ${target} opencl)
  mcl_end_to_end(spmv spmv/spmv_gpu_v2.mcl ${target} opencl)
endforeach()
mcl_end_to_end(spmv spmv/spmv_gpu_v2.mcl hopper cuda)
