#!/usr/bin/env python3
"""The experiment behind matmul_hopper_v7async (matmul-run3.json): rewrites
the CUDA that `mclc gen --backend cuda --target hopper` wrote for
matmul_hopper_v7.mcl (two shared buffers per operand, s_a0/s_b0 and
s_a1/s_b1) so that the copies from a and b into them are asynchronous
(cp.async through CUDA's pipeline primitives, cuda_pipeline.h): every
copy of an element of a or b into a shared buffer becomes
__pipeline_memcpy_async, every barrier and every plain store into a
buffer first waits for this thread's copies. Optionally adds
__launch_bounds__(256, 2) (at most 128 registers).

usage: async_copies_by_hand.py GEN_DIR SOURCE_MODULE NEW_MODULE [--two-blocks]
  GEN_DIR/SOURCE_MODULE is what mclc gen wrote; GEN_DIR/NEW_MODULE is made.
"""
import os
import re
import shutil
import sys


def main():
    gen, source, target = sys.argv[1:4]
    two_blocks = "--two-blocks" in sys.argv[4:]
    out = os.path.join(gen, target)
    shutil.rmtree(out, ignore_errors=True)
    os.mkdir(out)
    for name in os.listdir(os.path.join(gen, source)):
        text = open(os.path.join(gen, source, name)).read()
        text = re.sub(r"\b%s\b" % source, target, text).replace(source + "_kernels", target + "_kernels")
        if name.endswith("_kernels.cuh"):
            wait = "__pipeline_commit(); __pipeline_wait_prior(0); "
            text = text.replace("#pragma once\n", "#pragma once\n#include <cuda_pipeline.h>\n", 1)
            text = re.sub(r"(s_[ab][01]\[[^;]*\]) = ([ab]\[[^;]*\]);",
                          r"__pipeline_memcpy_async(&\1, &\2, sizeof(float));", text)
            text = re.sub(r"(s_[ab][01]\[[^;]*\]) = 0\.0f;", wait + r"\1 = 0.0f;", text)
            text = text.replace("__syncthreads();", wait + "__syncthreads();")
            if two_blocks:
                text = text.replace("__launch_bounds__(256)", "__launch_bounds__(256, 2)")
        open(os.path.join(out, name.replace(source, target)), "w").write(text)


if __name__ == "__main__":
    main()
