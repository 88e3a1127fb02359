#!/usr/bin/env bash
# run_opencl_errors.sh MCLC SOURCE_DIR TARGET
# Generates the OpenCL glue of examples/vectoradd for TARGET, builds
# drivers/opencl_errors_main.cpp against it and runs it: failures in the glue
# must reach the caller as mcl::Error with the backend's text.
set -eu
mclc=$1 src=$2 target=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$mclc" gen --target "$target" --backend opencl "$src/examples/vectoradd/vectoradd.mcl" -I "$src/examples" -o "$work/gen"
"${CXX:-c++}" -std=c++17 -O1 -Wall -Wextra -Werror -I "$work/gen" -I "$src/tests/backends/drivers" \
  "$src/tests/backends/drivers/opencl_errors_main.cpp" "$work/gen"/*.cpp -lOpenCL -o "$work/driver"
"$work/driver" | tee "$work/output"
grep -q ': PASS' "$work/output"
