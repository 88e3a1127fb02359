# Sourced by the tests of the llvm backend's PTX: hopper_ptx MCLC KERNEL
# [GEN_OPTION...] generates KERNEL for hopper into a temporary directory (removed on exit)
# and sets `ptx` to its kernels' PTX; ptx_assembles fails when ptxas, where
# installed, rejects it.
hopper_ptx() {
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  "$1" gen --target hopper --backend llvm "${@:3}" "$2" -o "$dir" > "$dir/log" 2>&1 || { cat "$dir/log"; exit 1; }
  ptx=$(ls "$dir"/*_kernels.ptx)
}
ptx_assembles() {
  local ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
  if [ -x "$ptxas" ]; then
    "$ptxas" -arch=sm_90 "$ptx" -o "$dir/k.cubin" || exit 1
  fi
}
