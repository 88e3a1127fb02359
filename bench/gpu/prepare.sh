#!/usr/bin/env bash
# bench/gpu/prepare.sh [OUT]: generates, on this machine (where mclc runs),
# the CUDA glue of every GPU version that bench/gpu/GpuBench.cu measures, for
# the hopper leaf, into OUT (default build/gpu-bench). A GPU machine then
# needs only OUT and this folder: bench/gpu/run.sh OUT builds and runs there.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/gpu-bench}
mclc=${MCLC:-build/driver/mclc}
rm -rf "$out" && mkdir -p "$out"
for version in matmul/matmul matmul/matmul_gpu_v1 matmul/matmul_hopper matmul/matmul_hopper_v2 gesummv/gesummv gesummv/gesummv_gpu; do
  "$mclc" gen --target hopper --backend cuda "examples/$version.mcl" -I examples -o "$out/$(basename "$version")"
done
cp bench/gpu/GpuBench.cu bench/gpu/run.sh "$out/"
echo "prepared $out: copy it to a GPU machine and run $out/run.sh $out"
