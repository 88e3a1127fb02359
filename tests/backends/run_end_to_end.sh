#!/usr/bin/env bash
# run_end_to_end.sh MCLC SOURCE_DIR APP [TARGET] [BACKEND]
# End-to-end test of one example: `mclc gen` the kernel at perfect
# (examples/APP/APP.mcl) for TARGET with BACKEND (default x86_avx2, cpp),
# build the generated glue with the test driver tests/backends/drivers/
# APP_main.cpp using the system C++ compiler with -Wall -Wextra -Werror, run
# it (the driver compares with examples/APP/APP_reference.h) and pass when it
# prints PASS. Works in a temporary directory that it removes.
set -eu
mclc=$1 src=$2 app=$3 target=${4:-x86_avx2} backend=${5:-cpp}
cxx=${CXX:-c++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$mclc" gen --target "$target" --backend "$backend" "$src/examples/$app/$app.mcl" -I "$src/examples" -o "$work/gen"
"$cxx" -std=c++17 -fopenmp -O2 -Wall -Wextra -Werror \
  -I "$work/gen" -I "$src/examples/$app" -I "$src/tests/backends/drivers" \
  "$src/tests/backends/drivers/${app}_main.cpp" "$work/gen"/*.cpp -o "$work/driver"
"$work/driver" | tee "$work/output"
grep -q ': PASS' "$work/output"
