#!/usr/bin/env bash
# check_generated_graphs.sh GENERATOR MCLC COUNT: writes the graphs of seeds
# 1..COUNT with mcl-gen-graph and checks each with `mclc check` (the graph
# against the kernels of its steps), that the generator is deterministic
# (seed 1 twice gives the same files), and that the graphs keep covering
# what they are for (so that differential testing of graphs keeps comparing
# it): two-component tags; negated, doubled, halved and constant tag
# components; two-dimensional items; steps that update an item in place; a
# tag collection prescribing two steps and put in two overlapping pieces; a
# collection with two environment targets; items named like C++ words;
# items of bytes and bools. On failure prints mclc's diagnostics (the graphs
# are kept in the printed directory).
set -eu
generator=$1 mclc=$2 count=$3
work=$(mktemp -d)
for seed in $(seq 1 "$count"); do
  "$generator" --seed "$seed" --out "$work/seed$seed"
  if ! "$mclc" check -I "$work/seed$seed" "$work/seed$seed/graph.cnc" > "$work/check.log" 2>&1; then
    cat "$work/check.log"
    echo "FAIL: mclc check refused the generated graph of seed $seed (kept in $work/seed$seed)"
    exit 1
  fi
done
"$generator" --seed 1 --out "$work/again"
for file in graph.cnc steps.mcl; do
  cmp -s "$work/again/$file" "$work/seed1/$file" || { echo "FAIL: seed 1's $file differs between runs"; exit 1; }
done
covers() { # DESCRIPTION PATTERN: some graph has a line matching PATTERN
  grep -qE "$2" "$work"/seed*/graph.cnc || { echo "FAIL: no generated graph has $1 (/$2/)"; exit 1; }
}
covers "a two-component tag collection" '^<int \[2\] '
covers "a negated tag component" '[:,] -[kj]'
covers "a constant tag component" ' : -?[0-9]+[],]'
covers "a doubled tag component" '[:,] 2 \* [kj]'
covers "a halved tag component" '[:,] [kj] / 2'
covers "two-dimensional items" '^\[[a-z]+\[n, m\] '
covers "an item updated in place" '\[(a[0-9]+) = .*\) -> \[\1 = '
covers "a tag put in two overlapping pieces" 'env -> .*<([a-z0-9]+) : \{-?[0-9]+ \.\. (-?[0-9]+)\}[^;]*<\1 : \{\2 \.\. '
covers "a collection with two environment targets" 'env -> .*\[([a-z0-9]+) : [^;]*\[\1 : '
covers "an item named like a C++ word" '^\[[a-z]+\[[n1]\] (class|graph|runtime|environment|data|tags)\];'
covers "bytes" '^\[byte\['
covers "bools" '^\[bool\['
shared=$(for graph in "$work"/seed*/graph.cnc; do grep -oE '^<t[0-9]+> ::' "$graph" | sort | uniq -d; done | wc -l)
((shared > 0)) || { echo "FAIL: no generated graph has a tag collection prescribing two steps"; exit 1; }
rm -rf "$work"
echo "PASS: $count generated graphs pass mclc check"
