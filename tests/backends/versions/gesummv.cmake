# End-to-end tests of the refined gesummv versions (included by tests/CMakeLists.txt).
# gesummv_x86 (x86_avx2 level): the generated C++ and OpenCL on PoCL.
foreach(backend cpp opencl)
  mcl_end_to_end(gesummv gesummv/gesummv_x86.mcl x86_avx2 ${backend})
endforeach()
# gesummv_gpu (gpu level): OpenCL at the GPU leaves, run on PoCL through the
# glue's fallback to any OpenCL device.
foreach(target hopper fermi)
  mcl_end_to_end(gesummv gesummv/gesummv_gpu.mcl ${target} opencl)
endforeach()
