#!/usr/bin/env bash
# check_generated.sh GENERATOR MCLC COUNT: writes the programs of seeds
# 1..COUNT at levels perfect and gpu with mcl-gen-program and checks each
# with `mclc check` (one mclc per level, all files at once), and that the
# generator is deterministic (seed 1 twice gives the same text), and that
# the programs of each level call every rounded function of lib.math that
# the generator writes (so that differential testing keeps comparing each
# across the engines), and that some program sums over in0 striding by a
# block's thread count (`j = k * T + t; if (j < n)`, gesummv_gpu's loop).
# Passes when mclc accepts every program; on failure
# prints mclc's diagnostics, which name the files (kept in the printed
# directory).
set -eu
generator=$1 mclc=$2 count=$3
examples=$(cd "$(dirname "$0")/../../examples" && pwd) # lib.atomics, which generated histograms import
work=$(mktemp -d)
for level in perfect gpu; do
  mkdir -p "$work/$level"
  for seed in $(seq 1 "$count"); do
    "$generator" --seed "$seed" --level "$level" > "$work/$level/seed$seed.mcl"
  done
  if ! "$mclc" check -I "$examples" "$work/$level"/*.mcl; then
    echo "FAIL: mclc check refused generated $level programs (kept in $work)"
    exit 1
  fi
  "$generator" --seed 1 --level "$level" | cmp -s - "$work/$level/seed1.mcl" || { echo "FAIL: $level seed 1 differs between runs"; exit 1; }
  for function in exp exp2 log log2 sqrt rsqrt sin cos tan tanh erf native_exp native_log native_recip native_divide; do
    grep -qE "\] = $function\(" "$work/$level"/*.mcl ||
      { echo "FAIL: no generated $level program stores $function(...) in an output"; exit 1; }
  done
  grep -qE "for \(int k[0-9]+ = 0; k[0-9]+ < .*; k[0-9]+\+\+\)" "$work/$level"/*.mcl &&
    grep -qE "^ +int j[0-9]+ = k[0-9]+ \* (32|64|256) \+ t[0-9]+;" "$work/$level"/*.mcl ||
    { echo "FAIL: no generated $level program sums over in0 striding by a block's thread count"; exit 1; }
  echo "$count generated $level programs pass mclc check"
done
rm -rf "$work"
echo "PASS"
