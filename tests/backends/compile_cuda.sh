#!/usr/bin/env bash
# compile_cuda.sh MCLC FILE TARGET: generates FILE's CUDA for TARGET and
# compiles the glue with nvcc, warnings as errors, for kernels that have no
# end-to-end driver; skipped (exit 77) without nvcc.
set -eu
mclc=$1 file=$2 target=$3
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
  echo "SKIP: nvcc is not installed; generated CUDA is compiled only where it is"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$mclc" gen --target "$target" --backend cuda "$file" -o "$work/gen"
for cu in "$work/gen"/*.cu; do
  "$nvcc" -std=c++17 -O2 -Werror all-warnings -Xcompiler -Wall,-Wextra -c "$cu" -o "$work/$(basename "$cu").o"
done
echo "$(basename "$file") ($target, cuda): compiled with nvcc: PASS"
