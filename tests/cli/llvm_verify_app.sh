#!/usr/bin/env bash
# llvm_verify_app.sh MCLC EXAMPLES SIZES FILE...
# `mclc verify FILE... --backends llvm --sizes SIZES -I EXAMPLES` (the first
# FILE the reference, the others its refined versions, relative to
# EXAMPLES) exits 0, every line is ok, every file has an llvm engine line,
# and every file whose level is above x86_avx2 (the reference at perfect,
# not a version at gpu) has the llvm engine and the llvm backend at
# x86_avx2. Prints the seconds it took.
set -u
mclc=$1 examples=$2 sizes=$3
shift 3
cd "$examples" || exit 1
start=$(date +%s.%N)
out=$("$mclc" verify "$@" --backends llvm --sizes "$sizes" -I . 2>&1)
status=$?
printf '%s\n' "$out"
printf 'took %.1f s\n' "$(echo "$(date +%s.%N) - $start" | bc)"
[ "$status" -eq 0 ] || { echo "exit status $status"; exit 1; }
if grep -v '^ok  ' <<<"$out" | grep -v '^[0-9]* ok, 0 failed, 0 skipped$' | grep -q .; then
  echo "lines that are not ok (above)"
  exit 1
fi
for file in "$@"; do
  grep -q "^ok    $file: llvm engine at " <<<"$out" || { echo "no llvm engine line for $file"; exit 1; }
  # x86_avx2 lies below the file's level (not below gpu or hopper)
  if grep -q "^ok    $file: interpreter at x86_avx2\$" <<<"$out"; then
    grep -q "^ok    $file: llvm engine at x86_avx2\$" <<<"$out" || { echo "no 'llvm engine at x86_avx2' line for $file"; exit 1; }
    grep -q "^ok    $file: llvm at x86_avx2\$" <<<"$out" || { echo "no 'llvm at x86_avx2' line for $file"; exit 1; }
  fi
done
grep -q "^ok    $1: llvm at x86_avx2\$" <<<"$out" || { echo "no 'llvm at x86_avx2' line for $1"; exit 1; }
exit 0
