#!/usr/bin/env bash
# llvm_ptx_barrier_function.sh MCLC KERNEL: the llvm backend generates
# hopper's PTX for KERNEL (tests/cli/llvm/barrier_function_hopper.mcl), a
# kernel whose threads call a function with two barriers: the PTX has
# them, and ptxas, where installed, accepts it.
set -u
. "$(dirname "$0")/llvm_hopper_ptx.sh"
hopper_ptx "$1" "$2"
count=$(grep -c 'bar\.sync' "$ptx")
[ "$count" -ge 2 ] || { echo "expected 2 bar.sync or more, found $count:"; cat "$ptx"; exit 1; }
ptx_assembles
echo "$count bar.sync"
