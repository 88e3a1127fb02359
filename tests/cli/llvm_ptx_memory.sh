#!/usr/bin/env bash
# llvm_ptx_memory.sh MCLC EXAMPLES: how the llvm backend's PTX for hopper
# addresses memory.
#   - vectoradd (c = a + b): a and b, which the kernel never writes, are
#     read through the read-only data cache (ld.global.nc), as nvcc reads
#     const __restrict__ pointers; c is stored.
#   - matmul_hopper_v5: every shared-memory access has a 32-bit address, and
#     (where ptxas is installed) the kernel fits in 128 registers, so two
#     blocks of 256 threads share a multiprocessor, as with nvcc's code.
#   - convolution (perfect): the loops over the filter step their pointers
#     into a and f, as nvcc's loops do; no loop widens an index to 64 bits
#     in every iteration (mul.wide or cvt from 32 bits: the sign extension
#     of `j + x` before the offset was added kept one in the inner loop).
#   - gesummv_gpu: its loop over a row (unrolled, each copy's loads of a, b
#     and x under its guard `j < n`) loads through pointers it steps once
#     per iteration; only the remainder computes its addresses (before
#     WidenAddressIndices the first copy computed its three under its guard).
set -u
mclc=$1 examples=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
gen() {  # gen FILE OUT
  local log
  log=$("$mclc" gen -I "$examples" --target hopper --backend llvm --fp-contract "$1" -o "$2" 2>&1) ||
    { printf 'mclc gen %s failed:\n%s\n' "$1" "$log"; exit 1; }
}
gen "$examples/vectoradd/vectoradd.mcl" "$dir/vectoradd"
ptx=$dir/vectoradd/vectoradd_kernels.ptx
[ "$(grep -c 'ld\.global\.nc\.f32' "$ptx")" -eq 2 ] || { echo "vectoradd: a and b not read as ld.global.nc:"; grep 'global' "$ptx"; exit 1; }
grep -q 'st\.global\.f32' "$ptx" || { echo "vectoradd: no store of c"; exit 1; }

gen "$examples/matmul/matmul_hopper_v5.mcl" "$dir/v5"
ptx=$dir/v5/matmul_hopper_v5_kernels.ptx
grep -q 'ld\.shared\.v4' "$ptx" || { echo "matmul_hopper_v5: no 16-byte shared loads"; exit 1; }
if grep -E '(ld|st)\.shared[^[]*\[%rd' "$ptx"; then
  echo "matmul_hopper_v5: shared memory addressed in 64 bits"
  exit 1
fi

ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
if [ -x "$ptxas" ]; then
  "$ptxas" -arch=sm_90 -O3 -v "$ptx" -o "$dir/v5.cubin" > "$dir/ptxas.log" 2>&1 || { cat "$dir/ptxas.log"; exit 1; }
  registers=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' "$dir/ptxas.log")
  echo "matmul_hopper_v5: $registers registers"
  [ -n "$registers" ] && [ "$registers" -le 128 ] || { echo "more than 128 registers:"; cat "$dir/ptxas.log"; exit 1; }
fi

gen "$examples/convolution/convolution.mcl" "$dir/convolution"
ptx=$dir/convolution/convolution_kernels.ptx
# Each loop of one block: its label, instructions up to the branch back to
# it, and how many of them widen an index.
loops=$(awk '/^\$L__BB[0-9_]+:/ { label = substr($1, 1, length($1) - 1); n = 0; wide = 0; next }
  label != "" && /^[ \t]+[a-z@]/ {
    n++
    if ($0 ~ /mul\.wide|cvt\.[su]64\.[su]32/) wide++
    if ($0 ~ /bra/ && index($0, label ";") > 0) { print label, n, wide; label = "" }
  }' "$ptx")
[ -n "$loops" ] || { echo "convolution: no loop found in the PTX"; cat "$ptx"; exit 1; }
if echo "$loops" | awk '$3 > 0 { found = 1 } END { exit !found }'; then
  printf 'convolution: loops (label, instructions, widenings) that widen an index every iteration:\n%s\n' "$loops"
  exit 1
fi
echo "convolution: loops (label, instructions, widenings): $(echo $loops)"

gen "$examples/gesummv/gesummv_gpu.mcl" "$dir/gesummv"
ptx=$dir/gesummv/gesummv_gpu_kernels.ptx
# Loads of global memory through a pointer the kernel steps (`add.s64 %rdN,
# %rdN, 2048`), and through one it computes; only the loop's remainder
# (its last iteration when the count is odd) may compute its three.
counts=$(awk '$1 == "add.s64" { d = $2; s = $3; sub(/,$/, "", d); sub(/,$/, "", s); if (d == s) stepped[d] = 1 }
  $1 ~ /^ld\.global/ { match($0, /\[%rd[0-9]+/); address[++n] = substr($0, RSTART + 1, RLENGTH - 1) }
  END { for (k = 1; k <= n; k++) if (address[k] in stepped) through++; else computed++
        print through + 0, computed + 0 }' "$ptx")
read -r through computed <<< "$counts"
echo "gesummv_gpu: $through loads through stepped pointers, $computed through computed ones"
[ "$through" -ge 6 ] && [ "$computed" -le 3 ] ||
  { echo "gesummv_gpu: the loop's copies compute their addresses under their guards:"; cat "$ptx"; exit 1; }
exit 0
