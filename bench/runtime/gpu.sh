#!/usr/bin/env bash
# bench/runtime/gpu.sh [OUT]: packs, on this machine (where mclc and apt
# run), what a GPU machine without apt or network needs to run the runtime
# benchmark (bench/runtime/run.py) with its GPU and its CPU cores, into OUT
# (default build/runtime-gpu):
#   - Debian's StarPU 1.3.10 .deb files and the libraries it needs that such
#     a machine lacks (unpacked there with dpkg -x; see
#     ../shared/measurements/h100-2026-11-23.md);
#   - the Khronos OpenCL C++ bindings header (CL/opencl.hpp);
#   - each runtime example and the empty kernel generated with
#     `mclc gen --runtime starpu`, their sources and references;
#   - run-on-gpu.sh, which there registers NVIDIA's OpenCL ICD when it may,
#     builds the programs with g++ (StarPU without MPI) and runs run.py --gpu,
#     writing RESULTS-gpu.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/runtime-gpu}
mclc=${MCLC:-build/driver/mclc}
rm -rf "$out" && mkdir -p "$out/debs" "$out/include/CL" "$out/gen" "$out/examples/runtime" "$out/examples/matmul" "$out/bench"
(cd "$out/debs" && apt-get download libstarpu-1.3-9 libstarpu-dev libglpk40 libamd2 libcolamd2 libsuitesparseconfig5 libltdl7 > /dev/null 2>&1)
cp /usr/include/CL/opencl.hpp "$out/include/CL/"
"$mclc" gen --runtime starpu --name matmul examples/matmul/*.mcl -I examples -o "$out/gen/matmul" > /dev/null
"$mclc" gen --runtime starpu --name kmeans examples/runtime/kmeans/kmeans.mcl examples/runtime/kmeans/kmeans_gpu.mcl \
  -I examples -o "$out/gen/kmeans" > /dev/null
"$mclc" gen --runtime starpu --name nbody examples/runtime/nbody/nbody.mcl examples/runtime/nbody/nbody_gpu.mcl \
  -I examples -o "$out/gen/nbody" > /dev/null
"$mclc" gen --runtime starpu --name empty bench/runtime/empty.mcl -o "$out/gen/empty" > /dev/null
cp -r examples/runtime/common examples/runtime/matmul examples/runtime/kmeans examples/runtime/nbody "$out/examples/runtime/"
cp examples/matmul/matmul_reference.h "$out/examples/matmul/"
cp bench/runtime/Overhead.cpp bench/runtime/run.py "$out/bench/"
cat > "$out/run-on-gpu.sh" <<'SCRIPT'
#!/usr/bin/env bash
# Builds and runs the runtime benchmark on this GPU machine (see gpu.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prefix=$here/prefix
mkdir -p "$prefix" "$here/bin"
for deb in "$here"/debs/*.deb; do dpkg -x "$deb" "$prefix"; done
lib=$prefix/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
icd=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib/libnvidia-opencl.so.1 2>/dev/null | head -1 || true)
if [ -n "$icd" ] && [ ! -e /etc/OpenCL/vendors/nvidia.icd ] && [ -w /etc/OpenCL/vendors ]; then
  echo "$icd" > /etc/OpenCL/vendors/nvidia.icd
fi
build() {  # build NAME MAIN GENERATED
  g++ -std=c++20 -O3 -march=native -fopenmp -I "$here/include" -I "$prefix/usr/include/starpu/1.3" \
    -I "$here/examples" -I "$3" "$2" "$3/$(basename "$3").cpp" -L "$lib" -lstarpu-1.3 -lOpenCL -o "$here/bin/$1"
}
for app in matmul kmeans nbody; do
  build "runtime_$app" "$here/examples/runtime/$app/main.cpp" "$here/gen/$app"
done
build runtime_overhead "$here/bench/Overhead.cpp" "$here/gen/empty"
# Debian's StarPU has at most 4 CPU workers; leave a core to the GPU's driver thread and one to the program.
cpus=$(( $(nproc) - 2 ))
[ "$cpus" -gt 4 ] && cpus=4
[ "$cpus" -lt 1 ] && cpus=1
python3 "$here/bench/run.py" --gpu --cpu-workers "$cpus" --bin "$here/bin" --results "$here/RESULTS-gpu.md" "$@"
SCRIPT
chmod +x "$out/run-on-gpu.sh"
echo "packed $out ($(du -sh "$out" | cut -f1)): copy it to a GPU machine and run $out/run-on-gpu.sh there"
