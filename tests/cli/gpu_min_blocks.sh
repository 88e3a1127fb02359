#!/usr/bin/env bash
# gpu_min_blocks.sh MCLC KERNEL THREADS: with --min-blocks-per-processor 2,
# the cuda backend's launch bounds and the llvm backend's PTX ask for two
# resident blocks of THREADS threads (__launch_bounds__(THREADS, 2);
# .maxntid THREADS, 1, 1 then .minnctapersm 2), and, where the CUDA
# toolkit is installed, both kernels then take at most the 65536 / (2 x
# THREADS) registers a thread of two such blocks has on sm_90 (KERNEL:
# matmul_hopper_v5, whose llvm PTX took 129 registers without it, one more
# than two blocks of 256 threads can have).
set -u
. "$(dirname "$0")/llvm_hopper_ptx.sh"
mclc=$1 kernel=$2 threads=$3
hopper_ptx "$mclc" "$kernel" --min-blocks-per-processor 2
grep -Pzq "\.maxntid $threads, 1, 1\n\.minnctapersm 2\n" "$ptx" || { echo "no .maxntid/.minnctapersm pair in the PTX:"; grep -n "maxntid\|minncta" "$ptx"; exit 1; }
"$mclc" gen --target hopper --backend cuda --min-blocks-per-processor 2 "$kernel" -o "$dir/cuda" > "$dir/log" 2>&1 || { cat "$dir/log"; exit 1; }
grep -q "__launch_bounds__($threads, 2)" "$dir"/cuda/*_kernels.cuh || { echo "no __launch_bounds__($threads, 2):"; grep -n "__global__" "$dir"/cuda/*_kernels.cuh; exit 1; }
limit=$((65536 / (2 * threads)))
registers() { grep -o 'Used [0-9]* registers' | grep -o '[0-9]*' | sort -n | tail -1; }
cuda=${CUDA_HOME:-/usr/local/cuda}/bin
if [ -x "$cuda/ptxas" ]; then
  used=$("$cuda/ptxas" -arch=sm_90 -v "$ptx" -o "$dir/k.cubin" 2>&1 | registers)
  [ -n "$used" ] && [ "$used" -le "$limit" ] || { echo "llvm PTX: $used registers, more than $limit"; exit 1; }
  echo "llvm PTX: $used registers (at most $limit)"
fi
if [ -x "$cuda/nvcc" ]; then
  used=$("$cuda/nvcc" -arch=sm_90 -Xptxas -v -c "$dir"/cuda/*.cu -I "$dir/cuda" -o "$dir/k.o" 2>&1 | registers)
  [ -n "$used" ] && [ "$used" -le "$limit" ] || { echo "cuda: $used registers, more than $limit"; exit 1; }
  echo "cuda: $used registers (at most $limit)"
fi
