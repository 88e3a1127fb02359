#!/usr/bin/env bash
# bench/gpu/run.sh DIR [OPTION...]: on a machine with an NVIDIA GPU, nvcc,
# cuBLAS and cuSPARSE (and the CUDA driver library, for the llvm backend's
# glue), builds DIR/gpu_bench from what prepare.sh put in DIR
# (the benchmark's sources and the generated glue, every source compiled in
# parallel into DIR/.obj), runs it and leaves DIR/gpu_results.json for
# bench/report.py. The options go to gpu_bench: [matmul_size
# [gesummv_size]], --quick, --apps=..., single sizes (see GpuBench.cu; the
# defaults take well under 90 seconds on an H100, the build about a minute).
# A DIR/gpu_bench already there is run without building (prepare.sh starts
# DIR afresh, so it was built from DIR's sources; e.g. ahead, with
# BUILD_ONLY=1 ARCH=sm_90, where nvcc is but no GPU).
# Environment: BUILD_ONLY=1 builds without running; ARCH (default native,
# the GPU of this machine, e.g. sm_90) and NVCC_FLAGS (e.g.
# "-Werror all-warnings") change the build; NVCC names the compiler.
set -euo pipefail
shopt -s nullglob
dir=$1
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
read -r -a extra <<< "${NVCC_FLAGS:-}"
flags=(-std=c++17 -O3 "-arch=${ARCH:-native}" "${extra[@]}")
includes=()
sources=("$dir"/*.cu)
for gen in "$dir"/*/; do
  includes+=(-I "$gen")
  sources+=("$gen"*.cu "$gen"*.cpp)
done
build() {
  rm -rf "$dir/.obj" && mkdir "$dir/.obj"
  pids=()
  objects=()
  for src in "${sources[@]}"; do
    name=$(basename "$src")
    objects+=("$dir/.obj/${name%.*}.o")
    "$nvcc" "${flags[@]}" "${includes[@]}" -c "$src" -o "${objects[-1]}" &
    pids+=($!)
  done
  failed=0
  for pid in "${pids[@]}"; do
    wait "$pid" || failed=1
  done
  if (( failed )); then
    echo "run.sh: compilation failed" >&2
    exit 1
  fi
  "$nvcc" "${flags[@]}" "${objects[@]}" -lcublas -lcusparse -lcuda -o "$dir/gpu_bench"
}
[[ -x $dir/gpu_bench ]] || build
if [[ -n ${BUILD_ONLY:-} ]]; then
  exit 0
fi
"$dir/gpu_bench" "$dir/gpu_results.json" "${@:2}"
