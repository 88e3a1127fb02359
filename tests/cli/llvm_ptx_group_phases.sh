#!/usr/bin/env bash
# llvm_ptx_group_phases.sh MCLC KERNEL: the llvm backend's PTX for hopper
# makes the threads of a block wait between its phases as the C family's
# code does (GroupPhases): KERNEL (tests/cli/llvm/group_phases.mcl) needs
# exactly three bar.sync, and ptxas, where installed, accepts the PTX.
set -u
mclc=$1 kernel=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$mclc" gen --target hopper --backend llvm "$kernel" -o "$dir" > "$dir/log" 2>&1 || { cat "$dir/log"; exit 1; }
ptx=$(ls "$dir"/*_kernels.ptx)
count=$(grep -c 'bar\.sync' "$ptx")
[ "$count" -eq 3 ] || { echo "expected 3 bar.sync, found $count:"; cat "$ptx"; exit 1; }
ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
if [ -x "$ptxas" ]; then
  "$ptxas" -arch=sm_90 "$ptx" -o "$dir/k.cubin" || exit 1
fi
echo "3 bar.sync"
