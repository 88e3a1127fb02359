#!/usr/bin/env bash
# bench/gpu/units/run.sh DIR: on a machine with an NVIDIA GPU and nvcc,
# builds PerfectUnits.cu with the variants that prepare.sh put in DIR (one
# nvcc per file, all cores at once), runs it and leaves
# DIR/units_results.json (Google Benchmark's JSON format). CUDA_ARCH
# (default native) names the GPU architecture. A DIR/perfect_units already
# there is run without building; BUILD_ONLY=1 builds without running (ahead,
# with CUDA_ARCH=sm_90, where nvcc is but no GPU).
set -euo pipefail
dir=$(cd "$1" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
export nvcc dir
if [ ! -x "$dir/perfect_units" ]; then
  ls "$dir"/PerfectUnits.cu "$dir"/*/*.cu |
    xargs -P "$(nproc)" -I {} sh -c '"$nvcc" -std=c++17 -O3 -arch="${CUDA_ARCH:-native}" -I "$dir" -c "$1" -o "$1.o"' _ {}
  "$nvcc" -arch="${CUDA_ARCH:-native}" "$dir"/PerfectUnits.cu.o "$dir"/*/*.cu.o -o "$dir/perfect_units"
fi
if [ -n "${BUILD_ONLY:-}" ]; then
  exit 0
fi
"$dir/perfect_units" "$dir/units_results.json"
