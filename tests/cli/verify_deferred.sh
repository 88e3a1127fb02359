#!/usr/bin/env bash
# verify_deferred.sh MCLC MATMUL_DIR VERIFY_INPUTS
# `mclc verify --defer DIR` writes harnesses to run elsewhere and
# `--deferred-results DIR` judges what their run.sh scripts left, here with
# backends that run on this machine standing in for a GPU's:
# - before run.sh runs, the results are missing: a failure that says so;
# - matmul through cpp: ok once run.sh has run;
# - a version off by one through opencl: a FAIL naming the element;
# - a harness that does not build: a FAIL with its compiler's message;
# - cuda and llvm's PTX are deferred by default, and where nvcc is the cuda
#   harness builds for sm_90 (BUILD_ONLY=1) and, with no CUDA device here,
#   fails to run with the glue's message.
set -u
mclc=$1 matmul=$2 inputs=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # expect STATUS PATTERN -- ARGS...: mclc's exit status and a line of its output
  local want=$1 pattern=$2
  shift 3
  out=$("$mclc" "$@" 2>&1)
  local status=$?
  printf '%s\n' "$out"
  [ "$status" -eq "$want" ] || fail "exit status $status, not $want: mclc $*"
  grep -Eq "$pattern" <<<"$out" || fail "no line matching '$pattern': mclc $*"
}

d=$work/cpp
expect 0 "^[0-9]+ ok, 0 failed, 0 skipped, 1 deferred$" -- \
  verify "$matmul/matmul.mcl" --targets x86_avx2 --backends cpp --engine interp --sizes 1,7 --defer "$d"
grep -q "^defer .*matmul.mcl: cpp at x86_avx2: written to $d/0-matmul.x86_avx2.cpp " <<<"$out" || fail "no defer line"
[ -x "$d/0-matmul.x86_avx2.cpp/run.sh" ] || fail "no run.sh"
expect 1 "^FAIL .*: cpp at x86_avx2 \(run elsewhere\): not run: .*has no status" -- \
  verify "$matmul/matmul.mcl" --targets x86_avx2 --backends cpp --engine interp --sizes 1,7 --deferred-results "$d"
"$d/0-matmul.x86_avx2.cpp/run.sh" || fail "run.sh of cpp failed"
expect 0 "^ok +.*matmul.mcl: cpp at x86_avx2 \(run elsewhere\)$" -- \
  verify "$matmul/matmul.mcl" --targets x86_avx2 --backends cpp --engine interp --sizes 1,7 --deferred-results "$d"

d=$work/off_by_one
# The version's own interpreter runs fail too: exit status 1.
expect 1 "^[0-9]+ ok, [1-9][0-9]* failed, 0 skipped, 2 deferred$" -- \
  verify "$matmul/matmul.mcl" "$inputs/matmul_gpu_off_by_one.mcl" --targets hopper --backends opencl \
  --engine interp --sizes 7 --defer "$d"
for script in "$d"/*/run.sh; do
  "$script" || fail "$script failed"
done
expect 1 "^FAIL .*matmul_gpu_off_by_one.mcl: opencl at hopper \(run elsewhere\): at n=7 m=9 p=11: c\[[0-9]+,[0-9]+\] = " -- \
  verify "$matmul/matmul.mcl" "$inputs/matmul_gpu_off_by_one.mcl" --targets hopper --backends opencl \
  --engine interp --sizes 7 --deferred-results "$d"
grep -Eq "^ok +.*/matmul.mcl: opencl at hopper \(run elsewhere\)$" <<<"$out" || fail "the reference's opencl is not ok"

d=$work/broken
expect 0 "1 deferred$" -- \
  verify "$matmul/matmul.mcl" --targets x86_avx2 --backends cpp --engine interp --sizes 1 --defer "$d"
echo "int broken = ;" >> "$d/0-matmul.x86_avx2.cpp/harness.cpp"
"$d/0-matmul.x86_avx2.cpp/run.sh" && fail "run.sh of a broken harness succeeded"
expect 1 "^FAIL .*cpp at x86_avx2 \(run elsewhere\): the generated cpp code does not build warning-free:" -- \
  verify "$matmul/matmul.mcl" --targets x86_avx2 --backends cpp --engine interp --sizes 1 --deferred-results "$d"

expect 2 "backend 'starpu' cannot be deferred" -- verify "$matmul/matmul.mcl" --backends starpu --defer "$d"
expect 2 "no such directory" -- verify "$matmul/matmul.mcl" --deferred-results "$work/none"

d=$work/gpu
expect 0 "^defer .*: cuda at hopper: written to " -- \
  verify "$matmul/matmul.mcl" --targets hopper --engine interp --sizes 7 --defer "$d"
cuda_dir=$d/0-matmul.hopper.cuda
[ -x "$cuda_dir/run.sh" ] || fail "no cuda run.sh"
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
if [ ! -x "$nvcc" ]; then
  echo "no nvcc: the cuda harness is not built"
  exit 0
fi
BUILD_ONLY=1 CUDA_ARCH=sm_90 "$cuda_dir/run.sh" || { cat "$cuda_dir/build.log"; fail "the cuda harness does not build"; }
[ ! -e "$cuda_dir/status" ] || fail "BUILD_ONLY=1 left a status"
if command -v nvidia-smi > /dev/null && nvidia-smi > /dev/null 2>&1; then
  "$cuda_dir/run.sh" || fail "the cuda harness failed on this GPU"
  expect 0 "^ok +.*: cuda at hopper \(run elsewhere\)$" -- \
    verify "$matmul/matmul.mcl" --targets hopper --engine interp --sizes 7 --backends cuda --deferred-results "$d"
else
  "$cuda_dir/run.sh" && fail "the cuda harness ran without a GPU"
  expect 1 "^FAIL .*: cuda at hopper \(run elsewhere\): the cuda harness failed \(exit status 1\): .*no CUDA device" -- \
    verify "$matmul/matmul.mcl" --targets hopper --engine interp --sizes 7 --backends cuda --deferred-results "$d"
fi
echo "PASS"
