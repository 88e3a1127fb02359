#!/usr/bin/env bash
# each_bad_input.sh hdl|mcpl MCLC DIR
# Every malformed input in DIR must give a located error (file:line:col:
# error:) and exit status 1: never a crash, never status 3. An .hdl file is
# loaded alone with `list-hwd --hwd-path`; an .mcl file with `check`. The
# first line of each file may be a comment `// expect: TEXT` with a part of
# the expected message.
set -u
mode=$1 mclc=$2 dir=$3
failed=0 count=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$mode" in
  hdl) ext=hdl ;;
  mcpl) ext=mcl ;;
  *) echo "usage: $0 hdl|mcpl MCLC DIR"; exit 2 ;;
esac
for f in "$dir"/*."$ext"; do
  count=$((count + 1))
  rm -f "$work"/*
  cp "$f" "$work/"
  name=$(basename "$f")
  expected=$(sed -n '1s@^// expect: @@p' "$f")
  if [ "$mode" = hdl ]; then
    output=$("$mclc" list-hwd --hwd-path "$work" 2>&1)
  else
    output=$("$mclc" check "$work/$name" 2>&1)
  fi
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
echo "$count malformed inputs checked"
[ "$count" -gt 0 ] && exit $failed || exit 1
