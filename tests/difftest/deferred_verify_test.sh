#!/usr/bin/env bash
# deferred_verify_test.sh MCLC GENERATOR: the plumbing of
# deferred_verify.sh without a GPU. Two programs are prepared (one seed at
# both levels) with their cuda and PTX harnesses; unrun, check reports
# each as not run; with every harness "run" by copying its inputs to its
# outputs (exit status 0), check compares them and finds the outputs the
# programs compute missing.
set -u
mclc=$1 generator=$2
script=$(dirname "$0")/deferred_verify.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out=$("$script" prepare "$mclc" "$generator" "$work/v" 1 7000 2>&1)
echo "$out"
grep -q "^prepared 2 programs, 4 harnesses in " <<<"$out" || fail "not 2 programs with 4 harnesses"
[ "$(find "$work/v" -name run.sh | wc -l)" -eq 4 ] || fail "not 4 run.sh"

out=$("$script" check "$mclc" "$work/v" 2>&1)
status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "check of unrun harnesses exits $status"
grep -q "^2 programs, 2 mismatches$" <<<"$out" || fail "unrun harnesses are not mismatches"
grep -q "^MISMATCH s7000-gpu: FAIL .*cuda at hopper (run elsewhere): not run: " <<<"$out" || fail "no 'not run'"

for dir in "$work"/v/*/*/; do
  for input in "$dir"in*; do cp "$input" "$dir/out${input##*/in}"; done
  echo 0 > "$dir/status"
done
out=$("$script" check "$mclc" "$work/v" 2>&1)
echo "$out"
grep -q "^MISMATCH s7000-gpu: FAIL .*cuda at hopper (run elsewhere): at [^:]*: .* = .*, the reference gives " <<<"$out" ||
  fail "inputs passed off as outputs are not found out"
echo PASS
