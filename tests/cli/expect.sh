#!/usr/bin/env bash
# expect.sh STATUS REGEX COMMAND...
# Runs COMMAND; passes when it exits with STATUS and its output (stdout and
# stderr together) matches the Perl regular expression REGEX (which may span
# lines: \n matches a line break). REGEX NO_OUTPUT means: no output at all.
set -u
want_status=$1 regex=$2
shift 2
output=$("$@" 2>&1)
status=$?
if [ "$status" -ne "$want_status" ]; then
  printf 'exit status %s, expected %s\n--- output ---\n%s\n' "$status" "$want_status" "$output"
  exit 1
fi
if [ "$regex" = NO_OUTPUT ]; then
  if [ -n "$output" ]; then
    printf 'expected no output\n--- output ---\n%s\n' "$output"
    exit 1
  fi
elif ! grep -Pzq -- "$regex" <<<"$output"; then
  printf 'output does not match /%s/\n--- output ---\n%s\n' "$regex" "$output"
  exit 1
fi
exit 0
