#!/usr/bin/env bash
# verify_runtime.sh MCLC GENERATOR: `mclc verify --runtime starpu` runs
# every version of a kernel as tasks of the runtime, once on CPU workers and
# once on OpenCL workers (PoCL here), and compares them with the
# interpreter. Right versions agree (an example, and random programs of the
# difftest generator at perfect, whose doubles, bytes, records and kernel
# calls nobody wrote by hand); a wrong version that the runtime picks fails
# on both kinds of worker; a kernel with no version for a kind is skipped
# there; an unknown runtime is a usage error.
set -u
mclc=$1 generator=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  printf 'FAIL: %s\n' "$1"
  failures=$((failures + 1))
}
verify() { # LOG ARGS...: verify with the runtime, only the cpp backend; the exit status
  local log=$1
  shift
  "$mclc" verify --runtime starpu --backends cpp --engine interp --targets x86_avx2 -I "$root/examples" "$@" \
    > "$log" 2>&1
}
runtime_lines() { # LOG VERDICT: how many of the runtime's two lines have VERDICT
  grep -cE "^$2 +.*: runtime on StarPU \(every version\), (CPU|OpenCL) workers" "$1"
}

log=$work/gesummv.log
verify "$log" "$root/examples/gesummv/gesummv.mcl" "$root/examples/gesummv/gesummv_x86.mcl"
status=$?
if ((status != 0)) || [ "$(runtime_lines "$log" ok)" != 2 ]; then
  fail "gesummv and its x86 version: exit $status, want 0 and both runtime runs ok:"
  cat "$log"
fi

log=$work/wrong.log
verify "$log" "$root/examples/vectoradd/vectoradd.mcl" "$root/tests/runtime/verify/vectoradd_x86_wrong.mcl"
status=$?
if ((status != 1)) || [ "$(runtime_lines "$log" FAIL)" != 2 ] ||
  ! grep -q "runtime on StarPU (every version), OpenCL workers: at n=1: c\[0\] = " "$log"; then
  fail "a wrong x86_avx2 version: exit $status, want 1 and both runtime runs failing at c[0]:"
  cat "$log"
fi

log=$work/gpu.log
verify "$log" "$root/examples/gesummv/gesummv_gpu.mcl"
status=$?
if ((status != 0)) || [ "$(runtime_lines "$log" skip)" != 2 ] ||
  ! grep -q "no version of the kernel for these workers' devices" "$log"; then
  fail "a gpu version alone (no worker here has a GPU): exit $status, want 0 and both runtime runs skipped:"
  cat "$log"
fi

for seed in 1 2 3 4; do
  program=$work/seed$seed.mcl
  "$generator" --seed "$seed" --level perfect > "$program"
  log=$work/seed$seed.log
  verify "$log" "$program" --max-size 1024
  status=$?
  if ((status != 0)) || [ "$(runtime_lines "$log" ok)" != 2 ]; then
    fail "random program of seed $seed: exit $status, want 0 and both runtime runs ok:"
    cat "$log"
  fi
done

"$mclc" verify --runtime cilk "$root/examples/vectoradd/vectoradd.mcl" > "$work/usage.log" 2>&1
status=$?
if ((status != 2)) || ! grep -q "unknown runtime 'cilk'" "$work/usage.log"; then
  fail "--runtime cilk: exit $status, want 2 and the runtime named:"
  cat "$work/usage.log"
fi

if ((failures > 0)); then
  echo "$failures failed"
  exit 1
fi
echo "verify --runtime starpu: all cases passed"
