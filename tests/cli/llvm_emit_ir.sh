#!/usr/bin/env bash
# llvm_emit_ir.sh MCLC FILE SYMBOL
# `mclc run --emit-llvm F FILE` writes the optimized IR to F, which defines
# the kernel's function SYMBOL (mcl_llvm_<module>_<kernel>) and its entry.
set -u
mclc=$1 file=$2 symbol=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
out=$("$mclc" run --emit-llvm "$dir/k.ll" "$file" 2>&1) || { printf 'mclc run failed:\n%s\n' "$out"; exit 1; }
[ -s "$dir/k.ll" ] || { echo "no IR written"; exit 1; }
for name in "$symbol" "${symbol}_entry"; do
  if ! grep -q "^define .*@${name}(" "$dir/k.ll"; then
    printf 'the IR does not define @%s:\n' "$name"
    grep '^define' "$dir/k.ll"
    exit 1
  fi
done
exit 0
