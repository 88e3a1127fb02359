#!/usr/bin/env bash
# compile_runtime_tasks.sh GENERATOR MCLC CXX FIRST_SEED COUNT: the runtime's
# code for random programs. For seeds FIRST_SEED.. (COUNT of them) at levels
# perfect and gpu, `mclc gen --runtime starpu` of the generated program, and
# every C++ file it writes (the codelets and submit functions, with the cpp
# version's kernels where the program has one and the OpenCL glue of the
# GPU leaves) compiled with CXX -Wall -Wextra -Werror against StarPU's and
# OpenCL's headers, as mcl_add_runtime_kernels builds them. The examples
# cover the runtime's generator by hand; random programs bring what nobody
# wrote there (doubles, bytes, records and their arrays, kernel calls).
# A program the runtime refuses must be refused with a located error; at
# least half of them must compile, so that the test cannot pass by
# refusing. On failure the files are kept in the printed directory.
set -u
generator=$1 mclc=$2 cxx=$3 first=$4 count=$5
examples=$(cd "$(dirname "$0")/../../examples" && pwd) # lib.atomics, lib.math
work=$(mktemp -d)
flags=(-std=c++20 -fopenmp -Wall -Wextra -Werror -fsyntax-only)
# Include directories only: libstarpu's cflags turn on its deprecated names,
# which warn (mcl_add_runtime_kernels drops them too).
starpu_includes=$(pkg-config --cflags-only-I libstarpu) || { echo "FAIL: pkg-config libstarpu"; exit 1; }
read -ra starpu_flags <<< "$starpu_includes"
compiled=0 refused=0 failed=0
for ((seed = first; seed < first + count; ++seed)); do
  for level in perfect gpu; do
    name=seed$seed-$level
    "$generator" --seed "$seed" --level "$level" > "$work/$name.mcl"
    if ! log=$("$mclc" gen --runtime starpu -I "$examples" "$work/$name.mcl" -o "$work/$name" 2>&1); then
      if grep -qE "^$work/$name\.mcl:[0-9]+:[0-9]+: error: " <<< "$log"; then
        refused=$((refused + 1))
        continue
      fi
      printf 'FAIL %s: mclc gen --runtime starpu failed without a located error:\n%s\n' "$name" "$log"
      failed=$((failed + 1))
      continue
    fi
    for source in "$work/$name"/*.cpp; do
      if ! log=$("$cxx" "${flags[@]}" -I "$work/$name" "${starpu_flags[@]}" "$source" 2>&1); then
        printf 'FAIL %s: %s does not compile:\n%s\n' "$name" "$source" "$(head -20 <<< "$log")"
        failed=$((failed + 1))
        continue 2
      fi
    done
    compiled=$((compiled + 1))
  done
done
echo "$compiled programs compiled, $refused refused, $failed failed"
if ((failed > 0 || compiled < count)); then
  echo "FAIL (files kept in $work)"
  exit 1
fi
rm -rf "$work"
