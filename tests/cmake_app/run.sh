#!/usr/bin/env bash
# run.sh APP...: runs each built application, and those that the project
# lists in extra_apps.txt beside the first one (the BACKEND llvm programs,
# when mclc has that backend); passes only when every one exits 0 and prints
# PASS (the test command of `cmake.mcl_add_kernels`).
set -u
status=0
apps=("$@")
extra="$(dirname "$1")/extra_apps.txt"
if [ -f "$extra" ]; then
  while IFS= read -r app; do [ -n "$app" ] && apps+=("$app"); done < "$extra"
else
  echo "$extra: missing"; status=1
fi
for app in "${apps[@]}"; do
  output=$("$app")
  rc=$?
  if [ $rc -ne 0 ]; then echo "$output"; echo "$app: exited with $rc"; status=1; continue; fi
  echo "$output"
  if ! grep -q ': PASS' <<<"$output"; then echo "$app: no PASS"; status=1; fi
done
exit $status
