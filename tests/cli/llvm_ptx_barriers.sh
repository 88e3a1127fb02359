#!/usr/bin/env bash
# llvm_ptx_barriers.sh MCLC KERNEL COUNT: the llvm backend's PTX for hopper
# of KERNEL has COUNT bar.sync ("3": exactly three, "2+": two or more),
# and ptxas, where installed, accepts it. The kernels: group_phases.mcl
# (the threads of a block wait between its phases as the C family's code
# does, GroupPhases: exactly three), barrier_function_hopper.mcl (threads
# call a function with two barriers).
set -u
. "$(dirname "$0")/llvm_hopper_ptx.sh"
hopper_ptx "$1" "$2"
count=$(grep -c 'bar\.sync' "$ptx")
expected=$3
if [ "${expected%+}" != "$expected" ]; then
  [ "$count" -ge "${expected%+}" ] || { echo "expected $expected bar.sync, found $count:"; cat "$ptx"; exit 1; }
else
  [ "$count" -eq "$expected" ] || { echo "expected $expected bar.sync, found $count:"; cat "$ptx"; exit 1; }
fi
ptx_assembles
echo "$count bar.sync"
