#!/usr/bin/env bash
# gpu_drivers.sh: the end-to-end drivers of every GPU version, run on a
# machine with a CUDA device, over code generated on another machine (the
# GPU machine has nvcc but no mclc).
#   gpu_drivers.sh prepare MCLC OUT   here: `mclc gen` each example (perfect)
#       and each version refined at a GPU level, and the test kernels of
#       constructs the examples do not reach, for hopper with the cuda and
#       the llvm backend, into OUT/<backend>.<version>/, listed in
#       OUT/manifest ("app module dir backend" per line)
#   gpu_drivers.sh run OUT [JOBS]     there: build_and_run_driver.sh for each
#       line of the manifest, JOBS at once (default: the number of cores),
#       each one's log in OUT/<backend>.<version>.log; prints one line per
#       driver and a count, and fails when any driver fails; each driver
#       is kept as OUT/<backend>.<version>.driver, and one already there is
#       run without building (a machine with nvcc but no GPU builds them
#       ahead: there they pass as compiled only)
# MCL_DRIVER_WRAPPER passes through (e.g. compute-sanitizer).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
case "${1:-}" in
  prepare)
    mclc=$2 out=$3
    rm -rf "$out" && mkdir -p "$out"
    files=()
    for app in matmul convolution histogram gesummv blackscholes spmv vectoradd reduction complexmul; do
      files+=("examples/$app/$app.mcl")
    done
    files+=(examples/matmul/matmul_gpu.mcl examples/matmul/matmul_gpu_v1.mcl examples/matmul/matmul_hopper.mcl
            examples/matmul/matmul_hopper_v2.mcl examples/matmul/matmul_hopper_v3.mcl
            examples/matmul/matmul_hopper_v4.mcl examples/matmul/matmul_hopper_v5.mcl
            examples/matmul/matmul_hopper_v6.mcl examples/convolution/convolution_gpu.mcl
            examples/histogram/histogram_gpu.mcl examples/histogram/histogram_gpu_v2.mcl
            examples/histogram/histogram_gpu_v3.mcl examples/gesummv/gesummv_gpu.mcl examples/spmv/spmv_gpu.mcl
            examples/spmv/spmv_gpu_v2.mcl
            examples/blackscholes/blackscholes_gpu.mcl examples/blackscholes/blackscholes_gpu_v2.mcl)
    for kernel in large_shared scratch_arrays partial_write time_steps hygiene; do
      files+=("tests/backends/kernels/$kernel.mcl")
    done
    for file in "${files[@]}"; do
      version=$(basename "$file" .mcl)
      case "$file" in
        examples/*) app=$(basename "$(dirname "$file")") ;;
        *) app=$version ;;
      esac
      module=$(sed -n 's/^module \([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' "$src/$file" | head -n 1)
      for backend in cuda llvm; do
        "$mclc" gen --target hopper --backend "$backend" "$src/$file" -I "$src/examples" -o "$out/$backend.$version"
        echo "$app $module $backend.$version $backend" >> "$out/manifest"
      done
    done
    echo "prepared $(wc -l < "$out/manifest") drivers in $out" ;;
  run)
    out=$(cd "$2" && pwd) jobs=${3:-$(nproc)}
    export src out
    one() {
      set -- $1
      if MCL_DRIVER_BINARY=$out/$3.driver "$src/tests/backends/build_and_run_driver.sh" "$src" "$1" "$2" "$out/$3" "$4" > "$out/$3.log" 2>&1; then
        echo "PASS $3: $(grep ': PASS' "$out/$3.log" | tail -n 1)"
      else
        echo "FAIL $3: $(tail -n 3 "$out/$3.log" | tr '\n' ' ')"
      fi
    }
    export -f one
    results=$(xargs -P "$jobs" -I {} bash -c 'one "$@"' _ {} < "$out/manifest" | sort)
    echo "$results"
    failed=$(grep -c '^FAIL' <<< "$results" || true)
    echo "$(grep -c '^PASS' <<< "$results") passed, $failed failed"
    [ "$failed" -eq 0 ] ;;
  *) echo "usage: gpu_drivers.sh prepare MCLC OUT | run OUT [JOBS]" >&2; exit 2 ;;
esac
