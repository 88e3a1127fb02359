#!/usr/bin/env python3
"""The bound is a lower bound on real hardware: every kernel time measured on
an H100 (bench/gpu/results/h100-2026-11-23.json, bench/gpu/run.sh) is at
least the bound mclc feedback computes for that computation at hopper, the
description of that card. A bound above a measured time would be a wrong
roofline (a rate or a byte count too low).

usage: bound_vs_h100.py MCLC EXAMPLES_DIR RESULTS_JSON
"""
import json
import subprocess
import sys

# benchmark name -> (version file, sizes); cuBLAS and the hand-written
# kernels compute the same thing as the perfect version.
VERSIONS = {
    "matmul/cuda/mcl_perfect/kernel": ("matmul/matmul.mcl", {"n": 4096, "m": 4096, "p": 4096}),
    "matmul/cuda/mcl_gpu_v1/kernel": ("matmul/matmul_gpu_v1.mcl", {"n": 4096, "m": 4096, "p": 4096}),
    "matmul/cuda/mcl_hopper/kernel": ("matmul/matmul_hopper.mcl", {"n": 4096, "m": 4096, "p": 4096}),
    "matmul/cuda/mcl_hopper_v2/kernel": ("matmul/matmul_hopper_v2.mcl", {"n": 4096, "m": 4096, "p": 4096}),
    "matmul/cuda/cublas/kernel": ("matmul/matmul.mcl", {"n": 4096, "m": 4096, "p": 4096}),
    "matmul/cuda/naive_cuda/kernel": ("matmul/matmul.mcl", {"n": 4096, "m": 4096, "p": 4096}),
    "gesummv/cuda/mcl_perfect/kernel": ("gesummv/gesummv.mcl", {"n": 8192}),
    "gesummv/cuda/mcl_gpu/kernel": ("gesummv/gesummv_gpu.mcl", {"n": 8192}),
    "gesummv/cuda/cublas/kernel": ("gesummv/gesummv.mcl", {"n": 8192}),
    "gesummv/cuda/naive_cuda/kernel": ("gesummv/gesummv.mcl", {"n": 8192}),
}
SECONDS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def bound_seconds(mclc, examples, file, sizes):
    args = [mclc, "feedback", "--format", "json", "--hwd", "hopper", f"{examples}/{file}"]
    for name, value in sizes.items():
        args += ["--param", f"{name}={value}"]
    remarks = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)["remarks"]
    times = [r["quantities"]["time"]["value"] for r in remarks if r["kind"] == "bound" and "time" in r["quantities"]]
    if len(times) != 1:
        raise SystemExit(f"FAIL {file}: expected one bound with a time, got {times}")
    return times[0]


def main():
    mclc, examples, results = sys.argv[1:4]
    measured = {b["name"]: b["real_time"] * SECONDS[b["time_unit"]]
                for b in json.load(open(results))["benchmarks"] if b.get("run_type", "iteration") == "iteration"}
    failures = 0
    for name, (file, sizes) in VERSIONS.items():
        bound = bound_seconds(mclc, examples, file, sizes)
        time = measured[name]
        ok = time >= bound
        print(f"{'ok  ' if ok else 'FAIL'} {name}: measured {time * 1e3:.3f} ms, bound {bound * 1e3:.3f} ms "
              f"({bound / time:.0%} of the measured time)")
        failures += not ok
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
