#!/usr/bin/env bash
# build_and_run_driver.sh SOURCE_DIR APP MODULE GEN_DIR BACKEND
# Builds the end-to-end driver tests/backends/drivers/APP_main.cpp with the
# host glue that `mclc gen --backend BACKEND` wrote into GEN_DIR for module
# MODULE (a version of application APP; the driver calls APP::APP(...), so a
# version in another module gets a namespace alias), runs it (the driver
# compares with examples/APP/APP_reference.h on awkward sizes) and passes
# when it prints PASS. Needs no mclc: tests/backends/gpu_drivers.sh runs it on a
# GPU machine over code generated elsewhere.
#   cpp, hls: c++ -std=c++17 -fopenmp -Wall -Wextra -Werror, run natively
#             (hls: C simulation of the FPGA kernel)
#   opencl:   the same with -lOpenCL, run on whatever OpenCL device the glue
#             picks (PoCL here); the driver also checks that the OpenCL
#             build log is free of warnings (MCL_OPENCL_REQUIRE_CLEAN_BUILD)
#   llvm:     a CPU leaf's object (GEN_DIR/*_kernels.o) linked with c++; a
#             GPU leaf's glue (PTX inside, CUDA driver API) compiled with
#             c++ against CUDA's headers and linked with -lcuda -lcudart
#   cuda:     nvcc -Werror all-warnings, then run
# CUDA code (cuda, and llvm at a GPU leaf) runs where a CUDA device is; on a
# machine without one (no driver library, or the glue's mcl::Error "no CUDA
# device") it passes as compiled only; skipped (exit 77) without a CUDA
# toolkit. MCL_DRIVER_WRAPPER, when set, is a command that runs the driver
# (e.g. "compute-sanitizer --tool racecheck --error-exitcode 1"). Works in a
# temporary directory that it removes. MCL_DRIVER_BINARY, when set, names
# where the driver is kept: built there when absent (so a machine with nvcc
# but no GPU builds ahead, and the run there passes as compiled only), run
# from there without building when present (on the GPU machine).
set -eu
src=$1 app=$2 module=$3 gen=$4 backend=$5
cxx=${CXX:-c++}
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=${NVCC:-$(command -v nvcc || echo "$cuda/bin/nvcc")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

on_gpu=false
if [ "$backend" = cuda ] || { [ "$backend" = llvm ] && ls "$gen"/*_kernels.ptx > /dev/null 2>&1; }; then
  on_gpu=true
  if [ ! -x "$nvcc" ] || [ ! -f "$cuda/include/cuda.h" ]; then
    echo "SKIP: no CUDA toolkit at $cuda; generated CUDA code is compiled only where one is"
    exit 77
  fi
fi

mkdir -p "$work/alias"
if [ "$module" != "$app" ]; then
  printf '#pragma once\n#include "%s.h"\nnamespace %s = %s;\n' "$module" "$app" "$module" > "$work/alias/$app.h"
fi
includes=(-I "$work/alias" -I "$gen" -I "$src/examples/$app" -I "$src/tests/backends/drivers")
driver=$src/tests/backends/drivers/${app}_main.cpp

build_driver() {
  case "$backend" in
    cpp|hls)
      "$cxx" -std=c++17 -fopenmp -O2 -Wall -Wextra -Werror "${includes[@]}" "$driver" "$gen"/*.cpp -o "$work/driver" ;;
    opencl)
      "$cxx" -std=c++17 -O2 -Wall -Wextra -Werror "${includes[@]}" "$driver" "$gen"/*.cpp -lOpenCL -o "$work/driver" ;;
    llvm)
      if $on_gpu; then
        "$cxx" -std=c++17 -O2 -Wall -Wextra -Werror "${includes[@]}" -I "$cuda/include" "$driver" "$gen"/*.cpp \
          -L "$cuda/lib64" -L "$cuda/lib64/stubs" -lcuda -lcudart -o "$work/driver"
      else
        "$cxx" -std=c++17 -O2 -Wall -Wextra -Werror "${includes[@]}" "$driver" "$gen"/*.cpp "$gen"/*_kernels.o \
          -pthread -o "$work/driver"
      fi ;;
    cuda)
      cp "$driver" "$work/${app}_main.cu"
      "$nvcc" -std=c++17 -O2 -Werror all-warnings -Xcompiler -Wall,-Wextra "${includes[@]}" \
        "$work/${app}_main.cu" "$gen"/*.cu -o "$work/driver" ;;
    *) echo "unknown backend $backend" >&2; exit 2 ;;
  esac
}

if [ -n "${MCL_DRIVER_BINARY:-}" ] && [ -x "$MCL_DRIVER_BINARY" ]; then
  cp "$MCL_DRIVER_BINARY" "$work/driver"
else
  build_driver
  if [ -n "${MCL_DRIVER_BINARY:-}" ]; then
    cp "$work/driver" "$MCL_DRIVER_BINARY"
  fi
fi
if [ "$backend" = opencl ]; then
  export MCL_OPENCL_REQUIRE_CLEAN_BUILD=1
fi

if $on_gpu; then
  status=0
  { ${MCL_DRIVER_WRAPPER:-} "$work/driver" > "$work/output" 2>&1 || status=$?; } 2>/dev/null  # no "Aborted" from the shell
  if [ $status -ne 0 ] && grep -q 'no CUDA device\|libcuda\.so\.1: cannot open' "$work/output"; then
    echo "${app} ($module, $backend): compiled; not run: $(grep -o 'no CUDA device.*\|libcuda\.so\.1: cannot open.*' "$work/output" | head -n 1)"
    echo "${app}: PASS (compiled only)"
    exit 0
  fi
  cat "$work/output"
  [ $status -eq 0 ] && grep -q ': PASS' "$work/output"
  exit
fi
${MCL_DRIVER_WRAPPER:-} "$work/driver" | tee "$work/output"
grep -q ': PASS' "$work/output"
