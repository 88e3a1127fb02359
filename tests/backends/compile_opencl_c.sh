#!/usr/bin/env bash
# compile_opencl_c.sh MCLC SOURCE_DIR TARGET FILE...: generates each FILE
# (relative to SOURCE_DIR) for TARGET with the opencl backend and compiles
# the kernel source with clang as OpenCL C 1.2 with -Wall -Wextra -Werror:
# stricter than a device compiler's defaults (PoCL's build log, checked by
# the end-to-end tests), and without a device. A FILE written for another
# branch of the hierarchy (a gpu kernel for x86_avx2) is skipped.
set -eu
mclc=$1 src=$2 target=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for file in "$@"; do
  rm -rf "$work/gen"
  if ! log=$("$mclc" gen --target "$target" --backend opencl "$src/$file" -I "$src/examples" -o "$work/gen" 2>&1); then
    if grep -q "cannot translate to '$target': it is not below" <<< "$log"; then
      echo "$file: not above $target, skipped"
      continue
    fi
    echo "$log"
    exit 1
  fi
  clang -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only -Wall -Wextra -Werror "$work/gen"/*.cl
  echo "$file for $target: compiles as OpenCL C 1.2 without warnings"
done
echo "PASS"
