#!/usr/bin/env python3
"""The bound is a lower bound on real hardware: every kernel time measured on
an H100 (a JSON of bench/gpu/results written by bench/gpu/run.sh) is at
least the bound mclc feedback computes for that computation at hopper, the
description of that card, at the benchmark's sizes. A bound above a measured time would be a wrong
roofline (a rate or a byte count too low).

usage: bound_vs_h100.py MCLC EXAMPLES_DIR RESULTS_JSON
"""
import json
import subprocess
import sys

# The sizes of bench/gpu (GpuBench.h's Sizes) per application.
SIZES = {
    "matmul": {"n": 4096, "m": 4096, "p": 4096},
    "gesummv": {"n": 8192},
    "spmv": {"nrows": 4194304, "ncols": 4194304, "nnz": 100664455},
    "histogram": {"n": 268435456},
    "blackscholes": {"n": 67108864},
    "convolution": {"h": 8192, "w": 8192, "fh": 9, "fw": 9},
}


def version_file(app, variant):
    """The version file of a benchmark variant: a generated version through
    either backend (mcl_<version> cuda, llvm_<version> PTX) is
    examples/APP/APP_<version>.mcl (APP.mcl for perfect); the libraries and
    the hand-written kernels compute the same thing as the perfect version."""
    for prefix in ("mcl_", "llvm_"):
        if variant.startswith(prefix):
            version = variant[len(prefix):]
            return f"{app}/{app}.mcl" if version == "perfect" else f"{app}/{app}_{version}.mcl"
    return f"{app}/{app}.mcl"


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
                for b in json.load(open(results))["benchmarks"]
                if b.get("run_type", "iteration") == "iteration" and not b.get("error_occurred")}
    failures = checked = 0
    bounds = {}
    for name, time in measured.items():
        app, _, variant, what = name.split("/")
        if what != "kernel" or app not in SIZES:
            continue
        file = version_file(app, variant)
        if file not in bounds:
            bounds[file] = bound_seconds(mclc, examples, file, SIZES[app])
        bound = bounds[file]
        ok = time >= bound
        print(f"{'ok  ' if ok else 'FAIL'} {name}: measured {time * 1e3:.3f} ms, bound {bound * 1e3:.3f} ms "
              f"({bound / time:.0%} of the measured time)")
        failures += not ok
        checked += 1
    if checked == 0:
        raise SystemExit(f"FAIL: no kernel entry of {sorted(SIZES)} in {results}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
