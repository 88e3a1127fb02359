#!/usr/bin/env bash
# llvm_ptx_group_phases.sh MCLC KERNEL: the llvm backend's PTX for hopper
# makes the threads of a block wait between its phases as the C family's
# code does (GroupPhases): KERNEL (tests/cli/llvm/group_phases.mcl) needs
# exactly three bar.sync, and ptxas, where installed, accepts the PTX.
set -u
. "$(dirname "$0")/llvm_hopper_ptx.sh"
hopper_ptx "$1" "$2"
count=$(grep -c 'bar\.sync' "$ptx")
[ "$count" -eq 3 ] || { echo "expected 3 bar.sync, found $count:"; cat "$ptx"; exit 1; }
ptx_assembles
echo "3 bar.sync"
