#!/usr/bin/env bash
# llvm_ptx_private_atomics.sh MCLC KERNEL INCLUDE_DIR: an atomic on a
# thread's own memory is undefined on a GPU. In the llvm backend's PTX for
# KERNEL (tests/inputs/mcpl/verify/atomics_through_device_functions.mcl),
# whose device functions apply atomics to parameters that some calls pass a
# thread's own variable, each such atomic is guarded by a test of the
# address (isspacep.local) and a plain update; ptxas, where installed,
# accepts the PTX.
set -u
. "$(dirname "$0")/llvm_hopper_ptx.sh"
hopper_ptx "$1" "$2" -I "$3"
tests=$(grep -c 'isspacep\.local' "$ptx")
[ "$tests" -ge 1 ] || { echo "expected tests of the local window before atomics, found none:"; cat "$ptx"; exit 1; }
ptx_assembles
echo "$tests tests of the local window"
