#!/usr/bin/env bash
# llvm_cpu.sh MCLC FILE
# `mclc gen --backend llvm --target x86_avx2` writes an object for the
# leaf's CPU (x86-64-v3: no 512-bit registers); with --cpu skylake-avx512 the
# loops LLVM vectorizes use 512-bit registers; with --cpu native the object
# is for this machine and defines the same symbols. FILE must have a loop
# that LLVM's loop vectorizer takes.
set -u
mclc=$1 file=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
gen() {  # NAME OPTIONS...: the object's disassembly, in $dir/NAME.s
  local name=$1
  shift
  out=$("$mclc" gen --backend llvm --target x86_avx2 "$@" "$file" -o "$dir/$name" 2>&1) ||
    { printf 'mclc gen %s failed:\n%s\n' "$*" "$out" >&2; exit 1; }
  objdump -d "$dir/$name"/*_kernels.o > "$dir/$name.s"
}
gen leaf
gen avx512 --cpu skylake-avx512
gen native --cpu native
leaf_zmm=$(grep -c '%zmm' "$dir/leaf.s")
avx512_zmm=$(grep -c '%zmm' "$dir/avx512.s")
echo "instructions on 512-bit registers: $leaf_zmm for the leaf's CPU, $avx512_zmm with --cpu skylake-avx512"
[ "$leaf_zmm" = 0 ] && [ "$avx512_zmm" -gt 0 ] || exit 1
symbols() { nm --defined-only "$dir/$1"/*_kernels.o | awk '$2 == "T" { print $3 }' | sort; }
[ "$(symbols leaf)" = "$(symbols native)" ] || { echo "--cpu native defines other symbols" >&2; exit 1; }
[ -n "$(symbols native)" ]
