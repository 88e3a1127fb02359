#!/usr/bin/env bash
# run_end_to_end.sh MCLC SOURCE_DIR APP FILE TARGET BACKEND
# End-to-end test of one kernel version: `mclc gen` examples/FILE (a version
# of application APP, e.g. matmul/matmul_gpu.mcl) for TARGET with BACKEND,
# build the generated glue into the test driver tests/backends/drivers/
# APP_main.cpp, run it (the driver compares with examples/APP/APP_reference.h
# on awkward sizes) and pass when it prints PASS. The driver calls
# APP::APP(...); a version in another module gets a namespace alias.
#   cpp, hls: c++ -std=c++17 -fopenmp -Wall -Wextra -Werror, run natively
#             (hls: C simulation of the FPGA kernel)
#   opencl:   the same with -lOpenCL, run on whatever OpenCL device the glue
#             picks (PoCL here); the driver also checks that the OpenCL
#             build log is free of warnings (MCL_OPENCL_REQUIRE_CLEAN_BUILD)
#   cuda:     nvcc -Werror all-warnings, then run: on a machine without a
#             usable CUDA device the glue's mcl::Error ("no CUDA device")
#             passes as compiled-only; skipped (exit 77) without nvcc
# Works in a temporary directory that it removes.
set -eu
mclc=$1 src=$2 app=$3 file=$4 target=$5 backend=$6
cxx=${CXX:-c++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ "$backend" = cuda ] && [ ! -x "$nvcc" ]; then
  echo "SKIP: nvcc is not installed; generated CUDA is compiled only where it is"
  exit 77
fi

"$mclc" gen --target "$target" --backend "$backend" "$src/examples/$file" -I "$src/examples" -o "$work/gen"
module=$(sed -n 's/^module \([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' "$src/examples/$file" | head -n 1)
mkdir -p "$work/alias"
if [ "$module" != "$app" ]; then
  printf '#pragma once\n#include "%s.h"\nnamespace %s = %s;\n' "$module" "$app" "$module" > "$work/alias/$app.h"
fi
includes=(-I "$work/alias" -I "$work/gen" -I "$src/examples/$app" -I "$src/tests/backends/drivers")

case "$backend" in
  cpp|hls)
    "$cxx" -std=c++17 -fopenmp -O2 -Wall -Wextra -Werror "${includes[@]}" \
      "$src/tests/backends/drivers/${app}_main.cpp" "$work/gen"/*.cpp -o "$work/driver" ;;
  opencl)
    "$cxx" -std=c++17 -O2 -Wall -Wextra -Werror "${includes[@]}" \
      "$src/tests/backends/drivers/${app}_main.cpp" "$work/gen"/*.cpp -lOpenCL -o "$work/driver"
    export MCL_OPENCL_REQUIRE_CLEAN_BUILD=1 ;;
  cuda)
    cp "$src/tests/backends/drivers/${app}_main.cpp" "$work/${app}_main.cu"
    "$nvcc" -std=c++17 -O2 -Werror all-warnings -Xcompiler -Wall,-Wextra "${includes[@]}" \
      "$work/${app}_main.cu" "$work/gen"/*.cu -o "$work/driver"
    status=0
    { "$work/driver" > "$work/output" 2>&1 || status=$?; } 2>/dev/null  # no "Aborted" from the shell
    if [ $status -ne 0 ] && grep -q 'no CUDA device' "$work/output"; then
      echo "${app} ($file, $target, cuda): compiled with nvcc; not run: $(grep -o 'no CUDA device.*' "$work/output" | head -n 1)"
      echo "${app}: PASS (compiled only)"
      exit 0
    fi
    cat "$work/output"
    grep -q ': PASS' "$work/output"
    exit 0 ;;
  *) echo "unknown backend $backend" >&2; exit 2 ;;
esac
"$work/driver" | tee "$work/output"
grep -q ': PASS' "$work/output"
