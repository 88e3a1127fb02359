# End-to-end tests of the refined convolution versions (included by tests/CMakeLists.txt).
# convolution_x86: x86_avx2 with cpp and opencl (PoCL).
foreach(backend cpp opencl)
  mcl_end_to_end(convolution convolution/convolution_x86.mcl x86_avx2 ${backend})
endforeach()
# convolution_gpu: opencl at the GPU leaves, run on PoCL through the glue's fallback.
foreach(target hopper fermi)
  mcl_end_to_end(convolution convolution/convolution_gpu.mcl ${target} opencl)
endforeach()
