#!/usr/bin/env bash
# golden.sh MCLC ROOT NAME ARGS...
# Runs `MCLC ARGS...` in ROOT and compares its standard output with
# ROOT/tests/golden/NAME; prints the difference when they differ.
set -u
mclc=$1 root=$2 name=$3
shift 3
cd "$root" || exit 1
expected="tests/golden/$name"
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
"$mclc" "$@" > "$actual" || { echo "mclc failed"; exit 1; }
if ! diff -u "$expected" "$actual"; then
  echo "golden output differs; if the change is deliberate, run scripts/refresh-golden"
  exit 1
fi
