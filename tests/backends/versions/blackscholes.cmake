# End-to-end tests of the refined blackscholes versions (included by tests/CMakeLists.txt).
# blackscholes_gpu and blackscholes_gpu_v2 (lib.math's native_ functions):
# opencl at the GPU leaves, run on PoCL through the glue's fallback.
foreach(version blackscholes_gpu blackscholes_gpu_v2)
  foreach(target hopper fermi)
    mcl_end_to_end(blackscholes blackscholes/${version}.mcl ${target} opencl)
  endforeach()
endforeach()
