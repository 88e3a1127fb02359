#!/usr/bin/env bash
# bench/run.sh [all|llvm]: builds and runs the application benchmarks of
# bench/ on this machine and writes bench/RESULTS.md.
#
# all (the default) first runs every application benchmark (OpenCL on PoCL,
# generated C++, OpenBLAS and hand-written references), with every library
# limited to the same number of threads, three times each (the report takes
# the median: this machine is shared and single runs vary), and rewrites
# bench/RESULTS.md (bench/report.py; the sections other scripts write between
# their markers are kept). The GPU benchmarks (bench/*/*_cuda*) are built and
# run separately on a GPU machine.
#
# Both then run the llvm backend's part (llvm alone runs only it): every
# version of the six applications through the llvm and the cpp backends in
# one program each (build/bench/<app>/<app>_llvm_bench), the llvm thread pool
# (MCL_NUM_THREADS) and OpenMP (OMP_NUM_THREADS) at the same thread count,
# MCL_BENCH_LLVM_REPETITIONS times (default 7) in random interleaved order,
# then again at one thread as a cross-check (5 times; MCL_BENCH_LLVM_SINGLE=0
# skips it);
# the llvm engine's compile latency per example (build/bench/llvm/
# compile_latency, 5 repetitions, and `mclc run` itself 3 times per example);
# and writes the section "llvm backend" of bench/RESULTS.md
# (bench/llvm/report.py). Exits non-zero when an example's compile latency is
# 100 ms or more (after writing the report).
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
case "$part" in all|llvm) ;; *) echo "usage: bench/run.sh [all|llvm]" >&2; exit 2 ;; esac
threads=${MCL_BENCH_THREADS:-$(nproc)}
reps=${MCL_BENCH_LLVM_REPETITIONS:-7}
export OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads POCL_CPU_MAX_CU_COUNT=$threads MCL_NUM_THREADS=$threads
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
out=build/bench/results  # the JSON of this run: bench/report.py can rewrite RESULTS.md from it
if [ "$part" = all ]; then
  cmake --build build -j "$threads" --target mcl_benchmarks
  rm -rf "$out" && mkdir -p "$out"
  results=()
  for bench in build/bench/*/*_bench; do
    [ -x "$bench" ] || continue
    case "$bench" in *_llvm_bench) continue ;; esac  # the llvm part below
    name=$(basename "$bench")
    echo "== $name"
    "$bench" --benchmark_repetitions=3 --benchmark_format=console --benchmark_out="$out/$name.json" --benchmark_out_format=json
    results+=("$out/$name.json")
  done
  python3 bench/report.py bench/RESULTS.md "${results[@]}"
else
  cmake --build build -j "$threads" --target mcl_llvm_benchmarks mclc
fi

# The llvm backend against the cpp backend (and OpenBLAS), and the compile latency.
llvm_out=$out/llvm
rm -rf "$llvm_out" && mkdir -p "$llvm_out"
uptime | sed 's/.*load average: //' > "$llvm_out/load.txt"
# Which compiler made the objects: the commit, and the compiler sources that differ from it.
{
  echo "commit $(git rev-parse --short HEAD)"
  changed=$(git status --porcelain -- backends compiler driver runtime hdl stdlib-hw | awk '{print $2}' | tr '\n' ' ')
  [ -n "$changed" ] && echo "with uncommitted changes in $changed" || echo "(no uncommitted compiler changes)"
  echo "(build/driver/mclc of $(date -r build/driver/mclc '+%F %T'))."
} > "$llvm_out/state.txt"
apps=()
for app in matmul gesummv convolution spmv histogram blackscholes; do
  bench=build/bench/$app/${app}_llvm_bench
  echo "== ${app}_llvm_bench ($reps repetitions, interleaved)"
  "$bench" --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
    --benchmark_display_aggregates_only=true --benchmark_format=console \
    --benchmark_out="$llvm_out/${app}_llvm_bench.json" --benchmark_out_format=json
  apps+=("$llvm_out/${app}_llvm_bench.json")
done
single=()
if [ "${MCL_BENCH_LLVM_SINGLE:-1}" != 0 ] && [ "$threads" != 1 ]; then
  mkdir -p "$llvm_out/single"
  for app in matmul gesummv convolution spmv histogram blackscholes; do
    echo "== ${app}_llvm_bench at one thread (5 repetitions, interleaved)"
    OMP_NUM_THREADS=1 MCL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 build/bench/$app/${app}_llvm_bench \
      --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true \
      --benchmark_display_aggregates_only=true --benchmark_format=console \
      --benchmark_out="$llvm_out/single/${app}_llvm_bench.json" --benchmark_out_format=json
    single+=("$llvm_out/single/${app}_llvm_bench.json")
  done
fi
uptime | sed 's/.*load average: //' >> "$llvm_out/load.txt"
echo "== compile_latency"
build/bench/llvm/compile_latency --benchmark_repetitions=5 --benchmark_display_aggregates_only=true \
  --benchmark_out="$llvm_out/compile_latency.json" --benchmark_out_format=json
echo "== mclc run (compile: X s), 3 times per example"
: > "$llvm_out/mclc_run_compile.txt"
for file in $(cd examples && find . -name '*.mcl' | sed 's|^\./||' | sort); do
  for _ in 1 2 3; do
    # A kernel that faults on mclc run's generated inputs prints no time (runtime/nbody).
    seconds=$(build/driver/mclc run "examples/$file" 2>/dev/null | sed -n 's/^compile: \([0-9.]*\) s.*$/\1/p' || true)
    [ -n "$seconds" ] && echo "$file $seconds" >> "$llvm_out/mclc_run_compile.txt"
  done
done
python3 bench/llvm/report.py bench/RESULTS.md --apps "${apps[@]}" ${single[@]+--apps-single "${single[@]}"} --latency "$llvm_out/compile_latency.json" \
  --cold "$llvm_out/mclc_run_compile.txt" --load "$llvm_out/load.txt" --state "$llvm_out/state.txt"
