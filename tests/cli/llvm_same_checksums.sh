#!/usr/bin/env bash
# llvm_same_checksums.sh MCLC FILE [RUN OPTIONS...]
# `mclc run --engine llvm` and `mclc run --engine interp` on FILE (the same
# seeded inputs) both succeed and print the same checksum for every output:
# every line but the first (which names the engine) and the timings.
set -u
mclc=$1 file=$2
shift 2
llvm=$("$mclc" run --engine llvm "$file" "$@" 2>&1) || { printf 'llvm engine failed:\n%s\n' "$llvm"; exit 1; }
interp=$("$mclc" run --engine interp "$file" "$@" 2>&1) || { printf 'interpreter failed:\n%s\n' "$interp"; exit 1; }
if ! head -1 <<<"$llvm" | grep -q '(llvm engine, '; then
  printf 'the first line does not name the llvm engine:\n%s\n' "$llvm"
  exit 1
fi
if ! grep -q '^compile: ' <<<"$llvm"; then
  printf 'no compile time from the llvm engine:\n%s\n' "$llvm"
  exit 1
fi
strip() { tail -n +2 | grep -v '^time: \|^compile: '; }
if [ "$(strip <<<"$llvm")" != "$(strip <<<"$interp")" ] || [ -z "$(strip <<<"$llvm")" ]; then
  printf 'checksums differ\n--- llvm engine ---\n%s\n--- interpreter ---\n%s\n' "$llvm" "$interp"
  exit 1
fi
exit 0
