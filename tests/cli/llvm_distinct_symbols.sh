#!/usr/bin/env bash
# llvm_distinct_symbols.sh MCLC FILE...
# `mclc gen --backend llvm --target x86_avx2` on each FILE (one module each):
# no two of the objects define the same symbol, so that one application
# links them all (module a_b with kernel c and module a with kernel b_c
# must not both define one symbol).
set -u
mclc=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
k=0
for file in "$@"; do
  k=$((k + 1))
  out=$("$mclc" gen --backend llvm --target x86_avx2 "$file" -o "$dir/$k" 2>&1) ||
    { printf 'mclc gen %s failed:\n%s\n' "$file" "$out"; exit 1; }
done
clashes=$(for o in "$dir"/*/*_kernels.o; do nm --defined-only "$o" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort -u; done | sort | uniq -d)
if [ -n "$clashes" ]; then
  printf 'symbols defined by more than one object:\n%s\n' "$clashes"
  exit 1
fi
exit 0
