#!/usr/bin/env bash
# each_bad_hdl.sh MCLC DIR
# Every DIR/*.hdl, loaded alone with --hwd-path, must give a located error
# (file:line:col: error:) and exit status 1: never a crash, never status 3.
# The first line of each file is a comment with the expected message.
set -u
mclc=$1 dir=$2
failed=0 count=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in "$dir"/*.hdl; do
  count=$((count + 1))
  rm -f "$work"/*.hdl
  cp "$f" "$work/"
  name=$(basename "$f")
  expected=$(sed -n '1s@^// expect: @@p' "$f")
  output=$("$mclc" list-hwd --hwd-path "$work" 2>&1)
  status=$?
  if [ "$status" -ne 1 ]; then
    echo "FAIL $name: exit status $status, expected 1"; echo "$output"; failed=1; continue
  fi
  if ! grep -Eq "$work/$name:[0-9]+:[0-9]+: error: " <<<"$output"; then
    echo "FAIL $name: no located error"; echo "$output"; failed=1; continue
  fi
  if [ -n "$expected" ] && ! grep -Fq -- "$expected" <<<"$output"; then
    echo "FAIL $name: message does not contain: $expected"; echo "$output"; failed=1; continue
  fi
done
echo "$count malformed descriptions checked"
[ "$count" -gt 0 ] && exit $failed || exit 1
