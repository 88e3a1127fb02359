#!/usr/bin/env bash
# bench/gpu/run.sh DIR [matmul_size] [gesummv_size]: on a machine with an
# NVIDIA GPU, nvcc and cuBLAS, builds GpuBench.cu with the glue that
# prepare.sh put in DIR, runs it and leaves DIR/gpu_results.json for
# bench/report.py (defaults: matmul 4096^3, gesummv 8192).
set -euo pipefail
dir=$1
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
includes=()
sources=()
for gen in "$dir"/*/; do
  includes+=(-I "$gen")
  sources+=("$gen"*.cu)
done
"$nvcc" -std=c++17 -O3 -arch=native "${includes[@]}" "$dir/GpuBench.cu" "${sources[@]}" -lcublas -o "$dir/gpu_bench"
"$dir/gpu_bench" "$dir/gpu_results.json" "${@:2}"
