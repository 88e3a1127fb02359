#!/usr/bin/env bash
# run_app.sh APP MODE [ARGS...]
# Runs the runtime example APP (a path) in MODE with a temporary STARPU_HOME
# and passes when it reports PASS (its result equals the C++ reference) and
# shows what MODE is about:
#   cpu          CPU workers only; every task on a CPU worker
#   opencl       the OpenCL (PoCL) worker only; every task on it
#   both         CPU and OpenCL workers, dmda placement
#   static       CPU and OpenCL workers, calls bound to them in turn: both run tasks
#   affinity     CPU and OpenCL workers, `@ CPU = 3, GPU = 1`: three CPU tasks per OpenCL task
#   mpi          two ranks under mpirun (loopback), CPU workers
#   fail-opencl  every OpenCL implementation fails: its tasks run again on a CPU worker's version
#   fail-cpu     every CPU implementation fails: its tasks run again with an OpenCL version
#   trace        both kinds, static, with MCL_RT_TRACE: a valid Chrome trace with tasks on both
#   trace-to-a-full-disk  MCL_RT_TRACE=/dev/full: the run still passes and says the trace was not written
#   leaf         MCL_RT_LEAF=opencl0:hopper: the OpenCL worker runs the versions chosen for hopper
#   generic      MCL_RT_LEAF=opencl0:alveo_u250, a leaf without an OpenCL version: the worker runs
#                the cpu level's version and says so
set -u
app=$1 mode=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export STARPU_HOME=$home STARPU_SILENT=1
unset MCL_RT_FAIL MCL_RT_TRACE MCL_RT_LEAF STARPU_SCHED

run() {
  output=$("$@" 2>&1)
  status=$?
  printf '%s\n' "$output"
  if [ "$status" -ne 0 ]; then
    echo "run_app: exit status $status"
    exit 1
  fi
  if ! grep -q ": PASS" <<<"$output"; then
    echo "run_app: no PASS"
    exit 1
  fi
}

# The number of tasks the summary gives to the workers whose line matches $1.
tasks_on() { grep -E "^(rank [0-9]+: )?  $1.*\]: [0-9]+$" <<<"$output" | awk -F': ' '{s += $NF} END {print s + 0}'; }

expect() {
  if ! eval "$1"; then
    echo "run_app: expected $1 (cpu $(tasks_on CPU), opencl $(tasks_on OpenCL))"
    exit 1
  fi
}

case $mode in
cpu)
  STARPU_NCPU=2 STARPU_NOPENCL=0 run "$app" "$@"
  expect '[ "$(tasks_on OpenCL)" -eq 0 ] && [ "$(tasks_on CPU)" -gt 0 ]' ;;
opencl)
  STARPU_NCPU=0 STARPU_NOPENCL=1 run "$app" "$@"
  expect '[ "$(tasks_on CPU)" -eq 0 ] && [ "$(tasks_on OpenCL)" -gt 0 ]' ;;
both)
  STARPU_NCPU=1 STARPU_NOPENCL=1 run "$app" "$@"
  expect '[ "$(tasks_on CPU)" -gt 0 ] || [ "$(tasks_on OpenCL)" -gt 0 ]' ;;
static)
  STARPU_NCPU=1 STARPU_NOPENCL=1 run "$app" --static "$@"
  expect '[ "$(tasks_on CPU)" -gt 0 ] && [ "$(tasks_on OpenCL)" -gt 0 ]' ;;
affinity)
  STARPU_NCPU=1 STARPU_NOPENCL=1 run "$app" --affinity 3,1 "$@"
  cpu=$(tasks_on CPU) gpu=$(tasks_on OpenCL)
  expect '[ "$gpu" -gt 0 ] && [ $((cpu - 3 * gpu)) -ge -3 ] && [ $((cpu - 3 * gpu)) -le 3 ]' ;;
mpi)
  root=()
  [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  STARPU_NCPU=1 STARPU_NOPENCL=0 run mpirun "${root[@]}" --oversubscribe -np 2 -x STARPU_HOME -x STARPU_SILENT \
    -x STARPU_NCPU -x STARPU_NOPENCL "$app" "$@"
  expect 'grep -q "^rank 1: " <<<"$output" && [ "$(grep -E "^rank 1:   CPU" <<<"$output" | grep -cE ": [1-9][0-9]*$")" -gt 0 ]' ;;
fail-opencl)
  STARPU_NCPU=1 STARPU_NOPENCL=1 MCL_RT_FAIL=opencl run "$app" --static "$@"
  expect 'grep -qE "tasks that ran again after a device failed: [1-9]" <<<"$output"'
  expect 'grep -q "injected failure (MCL_RT_FAIL=opencl); ran .* (x86_avx2, cpp) instead" <<<"$output"' ;;
fail-cpu)
  STARPU_NCPU=1 STARPU_NOPENCL=1 MCL_RT_FAIL=cpu run "$app" --static "$@"
  expect 'grep -qE "tasks that ran again after a device failed: [1-9]" <<<"$output"'
  expect 'grep -q "injected failure (MCL_RT_FAIL=cpu); ran .*, opencl) instead" <<<"$output"' ;;
trace)
  STARPU_NCPU=1 STARPU_NOPENCL=1 MCL_RT_TRACE=$home/trace.json run "$app" --static "$@"
  python3 "$here/check_trace.py" "$home/trace.json" || exit 1
  # Its Gantt chart is a well-formed SVG with a bar per task.
  "$here/../../scripts/trace-gantt" "$home/trace.json" -o "$home/trace.svg" || exit 1
  python3 -c 'import sys, xml.etree.ElementTree as ET
bars = [r for r in ET.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}rect") if r.find("{http://www.w3.org/2000/svg}title") is not None]
sys.exit(0 if bars else "no task bars in the chart")' "$home/trace.svg" || exit 1 ;;
trace-to-a-full-disk)
  STARPU_NCPU=1 STARPU_NOPENCL=0 MCL_RT_TRACE=/dev/full run "$app" "$@"
  expect 'grep -q "^mcl::rt: cannot write the trace ./dev/full.: the write failed$" <<<"$output"' ;;
leaf)
  STARPU_NCPU=0 STARPU_NOPENCL=1 MCL_RT_LEAF=opencl0:hopper run "$app" "$@"
  expect 'grep -qE "^  [a-z_0-9]+ \(hopper, opencl\): [1-9]" <<<"$output"' ;;
generic)
  STARPU_NCPU=0 STARPU_NOPENCL=1 MCL_RT_LEAF=opencl0:alveo_u250 run "$app" "$@"
  expect 'grep -q "is .alveo_u250., which has no version of .*; it runs .*, the version for the cpu level" <<<"$output"'
  expect 'grep -qE "^  [a-z_0-9]+ \(x86_avx2, opencl\): [1-9]" <<<"$output"' ;;
*)
  echo "run_app: unknown mode '$mode'"
  exit 2 ;;
esac
exit 0
