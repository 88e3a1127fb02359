#!/usr/bin/env bash
# bench/gpu/units/prepare.sh [OUT]: the experiment behind translation's
# choice of threads per block for perfect kernels (issue 17). Generates,
# here where mclc runs, the CUDA of each application's perfect version for
# hopper (module APP_tfill: the threads that translation chose, enough to
# spread the work over every multiprocessor), and copies of it with that
# choice replaced by a fixed 1024 (gpu's max_nr_units, translation's choice
# before), 512, 256, 128, 64 and 32 threads (modules APP_tT), and
# OUT/variants.h that includes them all. bench/gpu/units/run.sh OUT builds
# and runs PerfectUnits.cu with them on a GPU machine.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${1:-build/gpu-units}
mclc=${MCLC:-build/driver/mclc}
rm -rf "$out" && mkdir -p "$out"
# The declaration of the threads per block, in the glue and in the kernel.
chosen='(nrThreads_[A-Za-z0-9_]+ = ).*gpu\.hierarchy\.blocks\.block\.threads\.max_nr_units.*;$'
: > "$out/variants.h"
for app in matmul gesummv blackscholes histogram spmv convolution; do
  "$mclc" gen --target hopper --backend cuda "examples/$app/$app.mcl" -I examples -o "$out/$app"
  grep -Eq "$chosen" "$out/$app/$app.cu" || { echo "$app.cu: no threads per block to vary" >&2; exit 1; }
  for threads in fill 1024 512 256 128 64 32; do
    variant=${app}_t$threads
    mkdir "$out/$variant"
    replace=
    [ "$threads" = fill ] || replace="s#$chosen#\\1$threads /* varied by bench/gpu/units */;#"
    for f in "$out/$app"/*; do
      name=$(basename "$f")
      case "$name" in "$app.h"|"$app.cu") name=$variant.${name##*.} ;; esac
      sed -E -e "s/\\b$app\\b/$variant/g" -e "$replace" "$f" > "$out/$variant/$name"
    done
    echo "#include \"$variant/$variant.h\"" >> "$out/variants.h"
  done
  rm -r "${out:?}/$app"
done
# PerfectUnits.cu writes its results with bench/gpu's GpuResults.h, which
# includes the CUDA runtime header that every variant has a copy of.
cp bench/gpu/units/PerfectUnits.cu bench/gpu/units/run.sh bench/gpu/GpuResults.h "$out/"
cp "$out/matmul_tfill/mcl_cuda.h" "$out/matmul_tfill/mcl_runtime.h" "$out/"
echo "prepared $out: run $out/run.sh $out on a GPU machine"
