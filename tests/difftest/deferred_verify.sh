#!/usr/bin/env bash
# deferred_verify.sh: differential testing of the code that runs only on a
# GPU (the cuda backend and the llvm backend's PTX, at hopper), over random
# programs, in three steps, since the GPU machine has nvcc but no mclc:
#   deferred_verify.sh prepare MCLC GENERATOR OUT [COUNT] [SEED]   here:
#       writes COUNT (default 12) programs at each of the levels perfect and
#       gpu from seeds SEED.. (default 7000), and for each `mclc verify
#       --targets hopper --backends cuda,llvm --defer`: their harnesses with
#       the inputs and a run.sh each, in OUT/<program>/. A program whose
#       reference fails here (a mismatch of the interpreters) is reported and
#       left out; so is one whose folder would pass MAX_KB KiB (default
#       2048), or bring OUT past TOTAL_KB (default 24576), since OUT travels
#       to the GPU machine. OUT/manifest lists the rest.
#   deferred_verify.sh run OUT [JOBS] [RESULTS]   there: every run.sh, JOBS
#       at once (default: the number of cores), each within HARNESS_SECONDS
#       (default 240) to build and run, then packs what they left
#       (status, logs, outputs) into RESULTS (default OUT/results.tar.gz).
#   deferred_verify.sh check MCLC OUT [RESULTS]   here again: unpacks
#       RESULTS into OUT when given, and `mclc verify --deferred-results`
#       judges each program against the interpreter; a line per program,
#       the logs of failures in OUT/<program>.log, and last
#       "N programs, M mismatches" (exit status 1 when M > 0).
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)

# verify_args PROGRAM: verify's options of both ends, the same so that the
# inputs (seeded by the sizes) and folders match.
verify_args() {
  printf '%s\n' "$1" -I "$src/examples" --targets hopper --backends cuda,llvm --engine interp
}

case "${1:-}" in
  prepare)
    mclc=$2 generator=$3 out=$4 count=${5:-12} seed=${6:-7000}
    max_kb=${MAX_KB:-2048} total_kb=${TOTAL_KB:-24576}
    rm -rf "$out" && mkdir -p "$out/programs"
    : > "$out/manifest"
    for ((i = 0; i < count; ++i)); do
      for level in perfect gpu; do
        name=s$((seed + i))-$level
        program=$out/programs/$name.mcl
        "$generator" --seed $((seed + i)) --level "$level" > "$program" || { echo "generator failed: $name"; exit 1; }
        mapfile -t args < <(verify_args "$program")
        if ! "$mclc" verify "${args[@]}" --defer "$out/$name" > "$out/$name.log" 2>&1; then
          echo "left out $name: verify fails here (see $out/$name.log)"
          continue
        fi
        kb=$(du -sk "$out/$name" 2> /dev/null | cut -f1)
        if [ "${kb:-0}" -gt "$max_kb" ] || [ "$(du -sk "$out" | cut -f1)" -gt "$total_kb" ]; then
          echo "left out $name: $kb KiB of data"
          rm -rf "$out/$name"
          continue
        fi
        echo "$name $(grep -c '^defer ' "$out/$name.log")" >> "$out/manifest"
      done
    done
    echo "prepared $(wc -l < "$out/manifest") programs, $(awk '{s += $2} END {print s + 0}' "$out/manifest") harnesses in $out" ;;
  run)
    out=$(cd "$2" && pwd) jobs=${3:-$(nproc)} results=${4:-$2/results.tar.gz}
    find "$out" -mindepth 3 -maxdepth 3 -name run.sh | sort |
      xargs -P "$jobs" -I {} sh -c 'timeout "${HARNESS_SECONDS:-240}" {} > /dev/null 2>&1; echo "$(basename "$(dirname {})"): $(cat "$(dirname {})/status" 2> /dev/null || echo "no status")"' |
      sort > "$out/run.txt"
    echo "$(grep -c ': 0$' "$out/run.txt") of $(wc -l < "$out/run.txt") harnesses ran and exited 0"
    grep -v ': 0$' "$out/run.txt" | head -n 20
    (cd "$out" && find . -mindepth 3 -maxdepth 3 \( -name status -o -name run.log -o -name build.log -o -name 'out[0-9]*' \) -print0 |
      tar czf "$results" --null -T -) ;;
  check)
    mclc=$2 out=$3 results=${4:-}
    [ -z "$results" ] || tar xzf "$results" -C "$out" || exit 1
    programs=0 mismatches=0
    while read -r name harnesses; do
      programs=$((programs + 1))
      mapfile -t args < <(verify_args "$out/programs/$name.mcl")
      if "$mclc" verify "${args[@]}" --deferred-results "$out/$name" > "$out/$name.log" 2>&1; then
        echo "ok       $name ($harnesses harnesses)"
      else
        mismatches=$((mismatches + 1))
        echo "MISMATCH $name: $(grep -m1 '^FAIL' "$out/$name.log")"
      fi
    done < "$out/manifest"
    echo "$programs programs, $mismatches mismatches"
    [ "$mismatches" -eq 0 ] ;;
  *) echo "usage: deferred_verify.sh prepare MCLC GENERATOR OUT [COUNT] [SEED] | run OUT [JOBS] [RESULTS] | check MCLC OUT [RESULTS]" >&2
     exit 2 ;;
esac
