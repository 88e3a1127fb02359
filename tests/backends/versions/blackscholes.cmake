# End-to-end tests of the refined blackscholes versions (included by tests/CMakeLists.txt).
# blackscholes_gpu: opencl at the GPU leaves, run on PoCL through the glue's fallback.
foreach(target hopper fermi)
  mcl_end_to_end(blackscholes blackscholes/blackscholes_gpu.mcl ${target} opencl)
endforeach()
