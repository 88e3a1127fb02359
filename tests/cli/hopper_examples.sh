#!/usr/bin/env bash
# Every program under DIR (the examples, what differential testing found, or
# the kernels `mclc verify` runs for the classes of wrong results found)
# that translates to hopper, through `mclc gen --target hopper` with BACKEND:
#   cuda: kernels and glue compile for sm_90 with nvcc -Werror all-warnings,
#         and no kernel uses local memory for a stack frame or spills
#         (ptxas -v). The end-to-end tests build only the applications' main
#         versions; this covers the refined versions and the CnC and runtime
#         examples too.
#   llvm: the PTX passes `ptxas -arch=sm_90` and gives every kernel launch
#         bounds (.maxntid); the host glue (CUDA driver API) compiles with
#         -Wall -Wextra -Werror.
# Skipped (exit 77) where no CUDA toolkit is installed.
#   hopper_examples.sh MCLC DIR cuda|llvm [INCLUDE_DIR (default: DIR)]
set -u
mclc=$1
examples=$2
backend=$3
include=${4:-$examples}
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ ! -x "$cuda/bin/nvcc" ] || [ ! -x "$cuda/bin/ptxas" ] || [ ! -f "$cuda/include/cuda.h" ]; then
  echo "no CUDA toolkit at $cuda: skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# check_cuda/check_llvm OUT NAME FILE: 0 when the generated files pass.
check_cuda() {
  local out=$1 name=$2 file=$3
  if ! "$cuda/bin/nvcc" -std=c++17 -arch=sm_90 -Werror all-warnings -Xptxas -v -I "$out" -c "$out/$name.cu" \
       -o "$out/$name.o" > "$out/nvcc.log" 2>&1; then
    echo "FAIL nvcc $file:"; cat "$out/nvcc.log"
    return 1
  fi
  if grep -E "[1-9][0-9]* bytes (stack frame|spill)" "$out/nvcc.log"; then
    echo "FAIL local memory in $file"
    return 1
  fi
}
check_llvm() {
  local out=$1 name=$2 file=$3
  local ptx=$out/${name}_kernels.ptx
  if ! "$cuda/bin/ptxas" -arch=sm_90 "$ptx" -o "$out/kernels.cubin" > "$out/ptxas.log" 2>&1; then
    echo "FAIL ptxas $file:"; cat "$out/ptxas.log"
    return 1
  fi
  if [ "$(grep -c '^\.maxntid ' "$ptx")" -ne "$(grep -c '\.entry ' "$ptx")" ]; then
    echo "FAIL launch bounds $file: a kernel without .maxntid"
    return 1
  fi
  if ! ${CXX:-c++} -std=c++17 -Wall -Wextra -Werror -I "$out" -I "$cuda/include" -c "$out/$name.cpp" \
       -o "$out/glue.o" > "$out/glue.log" 2>&1; then
    echo "FAIL glue $file:"; cat "$out/glue.log"
    return 1
  fi
}

ok=0 failed=0 skipped=0
for file in $(find "$examples" -name '*.mcl' -not -path '*/lib/*' | sort); do
  name=$(sed -n 's/^module \([A-Za-z_0-9]*\);.*/\1/p' "$file" | head -1)  # the generated files' stem
  out=$work/$(basename "$file" .mcl)
  if ! log=$("$mclc" gen -I "$include" --target hopper --backend "$backend" "$file" -o "$out" 2>&1); then
    if grep -q "is not above 'hopper'" <<< "$log"; then
      skipped=$((skipped + 1))  # a version for another branch of the hierarchy
      continue
    fi
    echo "FAIL gen $file: $log"
    failed=$((failed + 1))
    continue
  fi
  if "check_$backend" "$out" "$name" "$file"; then
    ok=$((ok + 1))
  else
    failed=$((failed + 1))
  fi
done
echo "$ok passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$ok" -gt 0 ]
