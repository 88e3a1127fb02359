#!/usr/bin/env bash
# verify_graph.sh MCLC: `mclc verify GRAPH.cnc` runs a graph with the
# reference interpreter and on the runtime (CPU workers, then OpenCL
# workers: PoCL here) and compares what the environment gets. Graphs that
# once built or ran wrong agree now (tests/cnc/verify: several targets of
# one collection, items named like C++ keywords, bool items, a tag put
# twice); a wrong version of a step fails on both kinds of worker; a graph
# whose reference run fails (an instance waiting for an item nothing puts,
# an item left partly unwritten or put twice, a tag function dividing by
# zero) or that is too large to interpret gives its located error and exit
# 1; an option that applies only to kernels is a usage error.
set -u
mclc=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
graphs=$root/tests/cnc/verify
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  printf 'FAIL: %s\n' "$1"
  failures=$((failures + 1))
}
verify() { # LOG ARGS...: the exit status of verify
  local log=$1
  shift
  "$mclc" verify -I "$graphs" "$@" > "$log" 2>&1
}
runtime_lines() { # LOG VERDICT: how many of the runtime's two lines have VERDICT
  grep -cE "^$2 +.*: runtime on StarPU \(every version\), (CPU|OpenCL) workers" "$1"
}

for graph in "$root/tests/inputs/cnc/pipeline.cnc" "$graphs/targets.cnc" "$graphs/names.cnc" \
  "$graphs/tags_twice.cnc"; do
  log=$work/$(basename "$graph").log
  verify "$log" "$graph"
  status=$?
  if ((status != 0)) || [ "$(runtime_lines "$log" ok)" != 2 ] ||
    ! grep -qE '^ok +.*: interpreter \(the reference\)$' "$log"; then
    fail "$(basename "$graph"): exit $status, want 0, the reference and both runtime runs ok:"
    cat "$log"
  fi
done

log=$work/wrong.log
verify "$log" "$root/tests/inputs/cnc/pipeline.cnc" "$graphs/blur_x86_wrong.mcl"
status=$?
if ((status != 1)) || [ "$(runtime_lines "$log" FAIL)" != 2 ] ||
  ! grep -q "OpenCL workers: \[edges: (0)\] element 5 = 0, the reference gives 1" "$log"; then
  fail "a wrong x86_avx2 version of blur: exit $status, want 1 and both runtime runs failing at [edges: (0)]:"
  cat "$log"
fi

check_reference_error() { # GRAPH PATTERN: the reference fails with PATTERN, exit 1, nothing run
  local log=$work/$(basename "$1").log
  verify "$log" "$graphs/bad/$1"
  local status=$?
  if ((status != 1)) || ! grep -qE "$2" "$log" || grep -q 'runtime on StarPU' "$log"; then
    fail "bad/$1: exit $status, want 1 and the error /$2/ before any run:"
    cat "$log"
  fi
}
check_reference_error waits.cnc \
  "waits\.cnc:9:2: error: step 'half' at tag \(0\) gets \[graph: \(-1\)\], which nothing puts"
check_reference_error unwritten.cnc \
  "unwritten\.cnc:10:38: error: step 'halve_first' at tag \(0\) puts \[environment: \(0\)\], but its kernel leaves"
check_reference_error put_twice.cnc \
  "put_twice\.cnc:9:31: error: step 'half' at tag \(1\) puts \[environment: \(0\)\], which step 'half' at tag \(0\) put"
check_reference_error tag_divides_by_zero.cnc \
  "tag_divides_by_zero\.cnc:9:2: error: step 'half' at tag \(2\): the tag of \[graph\] divides by zero"
check_reference_error too_large.cnc \
  "too_large\.cnc:10:9: error: the reference would hold more than 33554432 values with this target \(its ranges span"

"$mclc" verify --backends cpp "$root/tests/inputs/cnc/pipeline.cnc" > "$work/usage.log" 2>&1
status=$?
if ((status != 2)) || ! grep -q -- "--backends applies to a kernel, not to a graph" "$work/usage.log"; then
  fail "--backends with a graph: exit $status, want 2 and the option named:"
  cat "$work/usage.log"
fi

if ((failures > 0)); then
  echo "$failures failed"
  exit 1
fi
echo "verify GRAPH.cnc: all cases passed"
