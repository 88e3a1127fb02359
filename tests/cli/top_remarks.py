#!/usr/bin/env python3
"""The remark mclc feedback ranks first (after the bound) for each example
application at the level of its refined version is the one that version
acted on (the refinement's header comment names it).

usage: top_remarks.py MCLC EXAMPLES_DIR
"""
import subprocess
import sys

# (file, level, params, kind, fragment of the message)
CASES = [
    ("matmul/matmul.mcl", "gpu", ["n=2048", "m=2048", "p=2048"], "faster-memory", "a[i, k] is loaded for each thread"),
    ("matmul/matmul_gpu_v1.mcl", "hopper", ["n=2048", "m=2048", "p=2048"], "data-reuse", "b[k, j] does not depend on loop index bi"),
    ("gesummv/gesummv.mcl", "gpu", ["n=8192"], "coalescing", "`a[i, j]`: not coalesced"),
    ("gesummv/gesummv.mcl", "x86_avx2", ["n=4096"], "coalescing", "`a[i, j]`: not coalesced"),
    ("convolution/convolution.mcl", "gpu", ["h=2048", "w=2048", "fh=9", "fw=9"], "faster-memory", "local memory can be leveraged"),
    ("convolution/convolution.mcl", "x86_avx2", ["h=2048", "w=2048", "fh=9", "fw=9"], "data-reuse", "a[i + y, j + x] over all dimensions"),
    ("histogram/histogram.mcl", "gpu", ["n=16777216"], "coalescing", "`hist[v]`: coalescing unknown"),
    ("spmv/spmv.mcl", "gpu", [], "coalescing", "`vals[e]`: coalescing unknown: each thread starts loop `e`"),
    ("spmv/spmv.mcl", "x86_avx2", [], "coalescing", "`vals[e]`: coalescing unknown: each vector starts loop `e`"),
]


def main():
    mclc, examples = sys.argv[1], sys.argv[2]
    failures = 0
    for file, level, params, kind, fragment in CASES:
        args = [mclc, "feedback", "-I", examples, "--hwd", level, f"{examples}/{file}"]
        for p in params:
            args += ["--param", p]
        out = subprocess.run(args, capture_output=True, text=True).stdout
        remarks = [line for line in out.splitlines() if ": remark: " in line]
        ok = len(remarks) >= 2 and "remark: bound" in remarks[0] and remarks[1].endswith(f"[{kind}]") \
            and fragment in remarks[1]
        print(f"{'ok  ' if ok else 'FAIL'} {file} at {level}: {remarks[1] if len(remarks) > 1 else out}"[:300])
        failures += not ok
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
