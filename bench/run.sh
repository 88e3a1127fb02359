#!/usr/bin/env bash
# bench/run.sh: builds and runs every application benchmark of bench/ on this
# machine (OpenCL on PoCL, generated C++, OpenBLAS and hand-written
# references), with every library limited to the same number of threads,
# three times each (the report takes the median: this machine is shared and
# single runs vary), and writes bench/RESULTS.md (bench/report.py). The GPU benchmarks
# (bench/*/*_cuda*) are built and run separately on a GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${MCL_BENCH_THREADS:-$(nproc)}
export OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads POCL_CPU_MAX_CU_COUNT=$threads
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j "$threads" --target mcl_benchmarks
out=build/bench/results  # the JSON of this run: bench/report.py can rewrite RESULTS.md from it
rm -rf "$out" && mkdir -p "$out"
results=()
for bench in build/bench/*/*_bench; do
  [ -x "$bench" ] || continue
  name=$(basename "$bench")
  echo "== $name"
  "$bench" --benchmark_repetitions=3 --benchmark_format=console --benchmark_out="$out/$name.json" --benchmark_out_format=json
  results+=("$out/$name.json")
done
python3 bench/report.py bench/RESULTS.md "${results[@]}"
