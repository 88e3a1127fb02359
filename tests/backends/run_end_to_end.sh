#!/usr/bin/env bash
# run_end_to_end.sh MCLC SOURCE_DIR APP FILE TARGET BACKEND
# End-to-end test of one kernel version: `mclc gen` examples/FILE (a version
# of application APP, e.g. matmul/matmul_gpu.mcl) for TARGET with BACKEND,
# then build_and_run_driver.sh builds the generated glue into the test
# driver tests/backends/drivers/APP_main.cpp, runs it and passes when it
# prints PASS (see there for each backend's compiler and what happens where
# no CUDA device is). Works in a temporary directory that it removes.
set -eu
mclc=$1 src=$2 app=$3 file=$4 target=$5 backend=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$mclc" gen --target "$target" --backend "$backend" "$src/examples/$file" -I "$src/examples" -o "$work/gen"
module=$(sed -n 's/^module \([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' "$src/examples/$file" | head -n 1)
"$(dirname "$0")/build_and_run_driver.sh" "$src" "$app" "$module" "$work/gen" "$backend"
