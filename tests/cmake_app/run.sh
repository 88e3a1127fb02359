#!/usr/bin/env bash
# run.sh APP...: runs each built application; passes only when every one
# exits 0 and prints PASS (the test command of `cmake.mcl_add_kernels`).
set -u
status=0
for app in "$@"; do
  output=$("$app")
  rc=$?
  if [ $rc -ne 0 ]; then echo "$output"; echo "$app: exited with $rc"; status=1; continue; fi
  echo "$output"
  if ! grep -q ': PASS' <<<"$output"; then echo "$app: no PASS"; status=1; fi
done
exit $status
