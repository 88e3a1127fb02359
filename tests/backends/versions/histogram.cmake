# End-to-end tests of the refined histogram versions (included by tests/CMakeLists.txt).
# histogram_gpu: opencl at the GPU leaves, run on PoCL through the glue's fallback.
# No CPU version: at x86_avx2 / cpu the feedback on the perfect version
# suggests no change (values[i] coalesced; hist[v] unpredictable).
foreach(target hopper fermi)
  mcl_end_to_end(histogram histogram/histogram_gpu.mcl ${target} opencl)
endforeach()
