#!/usr/bin/env bash
# llvm_fp_contract.sh MCLC FILE
# `mclc gen --backend llvm --target x86_avx2` keeps every multiply and add
# apart by default (no FMA instruction in the object: results round as the
# interpreter's do), and fuses them with --fp-contract (FMA instructions,
# which x86-64-v3 has). FILE must multiply and add floats.
set -u
mclc=$1 file=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fma_count() {  # OPTIONS...: the FMA instructions in the object gen writes with them
  rm -rf "$dir/gen"
  out=$("$mclc" gen --backend llvm --target x86_avx2 "$@" "$file" -o "$dir/gen" 2>&1) ||
    { printf 'mclc gen %s failed:\n%s\n' "$*" "$out" >&2; echo -1; return; }
  objdump -d "$dir"/gen/*_kernels.o | grep -c 'vfn\?m\(add\|sub\)[0-9]*[ps][sd]'
}
strict=$(fma_count)
contracted=$(fma_count --fp-contract)
echo "FMA instructions: $strict by default, $contracted with --fp-contract"
[ "$strict" = 0 ] && [ "$contracted" -gt 0 ]
