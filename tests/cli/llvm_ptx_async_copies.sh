#!/usr/bin/env bash
# llvm_ptx_async_copies.sh MCLC KERNEL: the llvm backend's PTX for hopper
# makes the copies the cuda backend makes asynchronously (AsyncCopies.h)
# with cp.async too: KERNEL (tests/inputs/mcpl/verify/async_copies.mcl)
# copies 2 elements of the next tile (zero-filling, with a source size)
# and 1 that its thread reads back, and waits twice (before the tile loop's
# barrier and before that read); ptxas, where installed, accepts the PTX.
set -u
. "$(dirname "$0")/llvm_hopper_ptx.sh"
hopper_ptx "$1" "$2"
sized=$(grep -c 'cp\.async\.ca\.shared\.global \[%r[0-9]*\], \[%rd[0-9]*\], 4, %r[0-9]*;' "$ptx")
plain=$(grep -c 'cp\.async\.ca\.shared\.global \[%r[0-9]*\], \[%rd[0-9]*\], 4;' "$ptx")
waits=$(grep -c 'cp\.async\.wait_all;' "$ptx")
[ "$sized" -eq 2 ] && [ "$plain" -eq 1 ] && [ "$waits" -eq 2 ] ||
  { echo "expected 2 zero-filling copies, 1 copy and 2 waits, found $sized, $plain and $waits:"; cat "$ptx"; exit 1; }
ptx_assembles
echo "2 zero-filling copies, 1 copy, 2 waits"
