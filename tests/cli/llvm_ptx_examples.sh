#!/usr/bin/env bash
# Every example that translates to hopper, through `mclc gen --backend llvm
# --target hopper`: its PTX must pass `ptxas -arch=sm_90` and its host glue
# (CUDA driver API) must compile with -Wall -Wextra -Werror. Skipped (exit
# 77) where no CUDA toolkit is installed.
#   llvm_ptx_examples.sh MCLC EXAMPLES_DIR
set -u
mclc=$1
examples=$2
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ ! -x "$cuda/bin/ptxas" ] || [ ! -f "$cuda/include/cuda.h" ]; then
  echo "no CUDA toolkit at $cuda: skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ok=0 failed=0 skipped=0
for file in $(find "$examples" -name '*.mcl' -not -path '*/lib/*' | sort); do
  out=$work/$(basename "$file" .mcl)
  if ! log=$("$mclc" gen -I "$examples" --target hopper --backend llvm "$file" -o "$out" 2>&1); then
    if grep -q "is not above 'hopper'" <<< "$log"; then
      skipped=$((skipped + 1))  # a version for another branch of the hierarchy
      continue
    fi
    echo "FAIL gen $file: $log"
    failed=$((failed + 1))
    continue
  fi
  ptx=$(ls "$out"/*_kernels.ptx)
  if ! "$cuda/bin/ptxas" -arch=sm_90 "$ptx" -o "$out/kernels.cubin" > "$out/ptxas.log" 2>&1; then
    echo "FAIL ptxas $file:"; cat "$out/ptxas.log"
    failed=$((failed + 1))
    continue
  fi
  glue=${ptx%_kernels.ptx}.cpp
  if ! ${CXX:-c++} -std=c++17 -Wall -Wextra -Werror -I "$out" -I "$cuda/include" -c "$glue" -o "$out/glue.o" \
       > "$out/glue.log" 2>&1; then
    echo "FAIL glue $file:"; cat "$out/glue.log"
    failed=$((failed + 1))
    continue
  fi
  ok=$((ok + 1))
done
echo "$ok passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$ok" -gt 0 ]
