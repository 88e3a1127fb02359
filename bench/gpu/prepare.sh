#!/usr/bin/env bash
# bench/gpu/prepare.sh [OUT]: generates, on this machine (where mclc runs),
# the CUDA glue of every GPU version that bench/gpu measures (the versions
# of matmul, gesummv, spmv, histogram, blackscholes and convolution in
# examples/, for the hopper leaf), and the same versions through the llvm
# backend (PTX and glue on the CUDA driver API, module renamed MODULE_llvm;
# LLVM_GEN_FLAGS, e.g. --fp-contract, go to that backend), into OUT
# (default build/gpu-bench, relative to the repository root), one folder per
# version, and copies beside them the benchmark's sources, run.sh and the
# applications' C++ reference headers. A GPU machine then needs only OUT:
# OUT/run.sh OUT builds and runs there.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/gpu-bench}
mclc=${MCLC:-build/driver/mclc}
apps=(matmul gesummv spmv histogram blackscholes convolution)
versions=(matmul/matmul matmul/matmul_gpu_v1 matmul/matmul_hopper matmul/matmul_hopper_v2 matmul/matmul_hopper_v3 matmul/matmul_hopper_v4
          matmul/matmul_hopper_v5 matmul/matmul_hopper_v6 histogram/histogram_gpu_v2 histogram/histogram_gpu_v3
          spmv/spmv_gpu_v2 blackscholes/blackscholes_gpu_v2)
for app in "${apps[@]:1}"; do
  versions+=("$app/$app" "$app/${app}_gpu")
done
rm -rf "$out" && mkdir -p "$out"
# llvm_variant VERSION NAME [GEN_OPTION...]: the llvm backend's PTX and glue
# of VERSION, in namespace NAME and folder OUT/NAME.
llvm_variant() {
  local version=$1 name=$2 module
  module=$(basename "$version")
  "$mclc" gen --target hopper --backend llvm ${LLVM_GEN_FLAGS:-} "${@:3}" "examples/$version.mcl" -I examples -o "$out/$name"
  for ext in h cpp; do
    sed -E -e "s/\bnamespace $module\b/namespace $name/" -e "s/#include \"$module\.h\"/#include \"$name.h\"/" \
      "$out/$name/$module.$ext" > "$out/$name/$name.$ext"
    rm "$out/$name/$module.$ext"
  done
}
for version in "${versions[@]}"; do
  module=$(basename "$version")
  "$mclc" gen --target hopper --backend cuda "examples/$version.mcl" -I examples -o "$out/$module"
  # The llvm backend's PTX of the same version, in namespace MODULE_llvm.
  llvm_variant "$version" "${module}_llvm"
done
# matmul_hopper_v5's PTX took 129 registers, one more than two blocks of 256
# threads can have on a multiprocessor: also with launch bounds for two.
llvm_variant matmul/matmul_hopper_v5 matmul_hopper_v5_llvm_2blocks --min-blocks-per-processor 2
cp bench/gpu/*.cu bench/gpu/*.h bench/gpu/run.sh "$out/"
for app in "${apps[@]}"; do
  cp "examples/$app/${app}_reference.h" "$out/"
done
echo "prepared $out: copy it to a GPU machine and run $out/run.sh $out"
