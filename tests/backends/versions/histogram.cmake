# End-to-end tests of the refined histogram versions (included by tests/CMakeLists.txt).
# histogram_gpu, its v2 (batches of 8 reads in flight) and v3 (512 values
# per thread, so fewer blocks merge into hist): opencl at the
# GPU leaves, run on PoCL through the glue's fallback; cuda compiled (and run
# where a CUDA device is).
# No CPU version: at x86_avx2 / cpu the feedback on the perfect version
# suggests no change (values[i] coalesced; hist[v] unpredictable).
foreach(target hopper fermi)
  mcl_end_to_end(histogram histogram/histogram_gpu.mcl ${target} opencl)
  mcl_end_to_end(histogram histogram/histogram_gpu_v2.mcl ${target} opencl)
  mcl_end_to_end(histogram histogram/histogram_gpu_v3.mcl ${target} opencl)
endforeach()
mcl_end_to_end(histogram histogram/histogram_gpu_v2.mcl hopper cuda)
mcl_end_to_end(histogram histogram/histogram_gpu_v3.mcl hopper cuda)
