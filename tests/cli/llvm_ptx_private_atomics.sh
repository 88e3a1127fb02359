#!/usr/bin/env bash
# llvm_ptx_private_atomics.sh MCLC KERNEL INCLUDE_DIR: an atomic on a
# thread's own memory is undefined on a GPU. KERNEL
# (tests/inputs/mcpl/verify/atomics_through_device_functions.mcl) calls
# device functions that apply atomics to parameters, passing a thread's own
# variables, device memory and shared memory. The lowering tests a
# parameter for the local window before its atomic, and once inlining has
# traced every pointer, the tests are answered: in the llvm backend's PTX
# the thread's own variables stay in registers (no local memory, no test
# left), and the atomics on device memory (3) and shared memory (2)
# remain; ptxas, where installed, accepts the PTX.
set -u
. "$(dirname "$0")/llvm_hopper_ptx.sh"
hopper_ptx "$1" "$2" -I "$3"
depots=$(grep -c '__local_depot' "$ptx")
tests=$(grep -c 'isspacep\.local' "$ptx")
global=$(grep -c 'atom\.global\.add' "$ptx")
shared=$(grep -c 'atom\.shared\.add' "$ptx")
[ "$depots" -eq 0 ] && [ "$tests" -eq 0 ] && [ "$global" -eq 3 ] && [ "$shared" -eq 2 ] ||
  { echo "expected no local memory, no test left, 3 global and 2 shared atomics," \
         "found $depots, $tests, $global and $shared:"; cat "$ptx"; exit 1; }
ptx_assembles
echo "no local memory; $global atomics on device memory, $shared on shared memory"
