#!/usr/bin/env bash
# llvm_gen_files.sh MCLC FILE MODULE KERNEL
# `mclc gen --backend llvm --target x86_avx2 FILE -o DIR` writes exactly the
# five files of LlvmBackend.h: MODULE_kernels.o (an x86-64 object defining
# mcl_llvm_<length of MODULE>MODULE_KERNEL), MODULE.h, MODULE.cpp, mcl_runtime.h, mcl_llvm.h.
set -u
mclc=$1 file=$2 module=$3 kernel=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
out=$("$mclc" gen --backend llvm --target x86_avx2 "$file" -o "$dir/gen" 2>&1) ||
  { printf 'mclc gen failed:\n%s\n' "$out"; exit 1; }
want=$(printf '%s\n' "${module}_kernels.o" "$module.h" "$module.cpp" mcl_runtime.h mcl_llvm.h | sort)
got=$(cd "$dir/gen" && ls -A | sort)
if [ "$want" != "$got" ]; then
  printf 'files written:\n%s\nexpected:\n%s\n' "$got" "$want"
  exit 1
fi
for f in $want; do [ -s "$dir/gen/$f" ] || { echo "$f is empty"; exit 1; }; done
symbol=mcl_llvm_${#module}${module}_${kernel}
if ! nm "$dir/gen/${module}_kernels.o" | grep -q " T ${symbol}\$"; then
  printf '%s_kernels.o does not define %s:\n' "$module" "$symbol"
  nm "$dir/gen/${module}_kernels.o"
  exit 1
fi
grep -q "void ${kernel}(" "$dir/gen/$module.h" || { echo "$module.h does not declare ${kernel}()"; exit 1; }
exit 0
