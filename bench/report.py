#!/usr/bin/env python3
"""bench/report.py OUT.md RESULT.json... : the benchmark results as a table.

Reads Google Benchmark JSON files whose benchmarks follow the naming of
bench/BenchSupport.h ("<app>/<device>/<variant>/<what>", label = size) and
writes a Markdown report: the machine, then per application and device the
rate of every variant (GFLOPS or GB/s), its ratio to each reference measured
in the same run, and the speed-up of each generated version over the
generated `perfect` version (thesis tables 3.4 and 3.5 style).
"""
import datetime
import json
import re
import os
import platform
import subprocess
import sys
from collections import OrderedDict


def machine_lines(contexts):
    lines = []
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    lines.append(f"- CPU: {cpu}, {os.cpu_count()} logical cores")
    if contexts:
        c = contexts[0]
        lines.append(f"- Benchmark host: {c.get('host_name', '?')}, "
                     f"{c.get('num_cpus', '?')} CPUs at {c.get('mhz_per_cpu', '?')} MHz, "
                     f"Google Benchmark library build: {c.get('library_build_type', '?')} (the distribution's "
                     f"package; the measured code is built with -O3 -march=native)")
    try:
        out = subprocess.run(["clinfo", "-l"], capture_output=True, text=True, timeout=30).stdout.strip()
        if out:
            # clinfo -l draws a tree ("`-- Device #0"); its backtick would open code in Markdown.
            lines.append("- OpenCL: " + "; ".join(l.strip().lstrip("`-+| ") for l in out.splitlines()))
    except (OSError, subprocess.SubprocessError):
        pass
    threads = {k: os.environ[k] for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "POCL_CPU_MAX_CU_COUNT")
               if k in os.environ}
    if threads:
        lines.append("- Threads: " + ", ".join(f"{k}={v}" for k, v in threads.items()))
    return lines


def kept_sections(path):
    """The sections that other scripts write into the report between their
    markers (<!-- NAME: ... --> to <!-- /NAME -->: bench/runtime/run.py's
    runtime, bench/llvm/report.py's llvm, bench/gpu/report.py's gpu), kept
    as they are."""
    try:
        text = open(path).read()
    except OSError:
        return []
    kept = []
    for match in re.finditer(r"<!-- ([a-z-]+): .*?-->.*?<!-- /\1 -->\n?", text, re.S):
        kept += [match.group(0).rstrip("\n"), ""]
    return kept


def main():
    out_path, inputs = sys.argv[1], sys.argv[2:]
    rows = OrderedDict()  # (app, device, what) -> list of (variant, rate, unit, label, time)
    runs = OrderedDict()  # (app, device, what) -> (variant, label) -> [(rate, unit, time)] over repetitions
    contexts = []
    for path in inputs:
        data = json.load(open(path))
        contexts.append(data.get("context", {}))
        for b in data.get("benchmarks", []):
            if b.get("run_type") == "aggregate":
                continue
            parts = b["name"].split("/")
            if len(parts) < 4:
                continue
            app, device, variant, what = parts[:4]
            key = (app, device, what)
            if b.get("error_occurred"):
                rows.setdefault(key, []).append((variant, None, "", b.get("error_message", "error"), None))
                continue
            unit = "GFLOPS" if "GFLOPS" in b else "GB/s" if "GBps" in b else ""
            rate = b.get("GFLOPS", b.get("GBps"))
            seconds = b["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
            runs.setdefault(key, OrderedDict()).setdefault((variant, b.get("label", "")), []).append(
                (rate, unit, seconds))
    # Repetitions of one benchmark: the run with the median rate.
    for key, variants in runs.items():
        for (variant, label), reps in variants.items():
            reps.sort(key=lambda r: r[0])
            rate, unit, seconds = reps[len(reps) // 2]
            rows.setdefault(key, []).append((variant, rate, unit, label, seconds))

    md = ["# Benchmark results", "",
          f"Written by `bench/run.sh` on {datetime.date.today().isoformat()}.", ""]
    md += machine_lines(contexts)
    md += ["", "Each benchmark ran three times; the tables give the run with the median rate. Rates are per call; `kernel` keeps the data on the device (resident API), "
           "`with_transfers` copies in and out on every call. Ratios compare with references "
           "measured in the same run; a ratio >= 1 is as fast as the reference.", ""]
    summary = []
    for (app, device, what), entries in rows.items():
        ok = [e for e in entries if e[1]]
        ref_names = list(OrderedDict.fromkeys(e[0] for e in ok if not e[0].startswith("mcl_")))
        # Ratios only between runs of the same size (the label).
        def same_size(variant, label):
            return next((e for e in ok if e[0] == variant and e[3] == label), None)
        has_perfect = any(e[0] == "mcl_perfect" for e in ok)
        md.append(f"## {app} on {device} ({what})")
        md.append("")
        header = ["variant", "size", "time (s)", "rate"] + [f"vs {r}" for r in ref_names]
        if has_perfect:
            header.append("speed-up vs mcl_perfect")
        md.append("| " + " | ".join(header) + " |")
        md.append("|" + "---|" * len(header))
        for variant, rate, unit, label, seconds in entries:
            if rate is None:
                md.append(f"| {variant} | | | failed: {label} |" + " |" * (len(header) - 4))
                continue
            cells = [variant, label, f"{seconds:.4g}", f"{rate:.3g} {unit}"]
            for r in ref_names:
                ref = same_size(r, label)
                cells.append(f"{rate / ref[1]:.2f}" if ref else "")
            if has_perfect:
                perfect = same_size("mcl_perfect", label)
                cells.append(f"{rate / perfect[1]:.2f}" if perfect and variant.startswith("mcl_") else "")
            md.append("| " + " | ".join(cells) + " |")
        md.append("")
        for label in OrderedDict.fromkeys(e[3] for e in ok):
            generated = [e for e in ok if e[0].startswith("mcl_") and e[3] == label]
            if not generated:
                continue
            best = max(generated, key=lambda e: e[1])
            perfect = same_size("mcl_perfect", label)
            refs = [same_size(r, label) for r in ref_names]
            summary.append(f"| {app} | {device} | {what} | {label} | {best[0]} | "
                           + (f"{best[1] / perfect[1]:.2f}" if perfect else "") + " | "
                           + ", ".join(f"{best[1] / r[1]:.2f} x {r[0]}" for r in refs if r) + " |")
    if summary:
        md += ["## Summary: best generated version per application and device", "",
               "| application | device | measured | size | best version | speed-up vs perfect | vs references |",
               "|---|---|---|---|---|---|---|"] + summary + [""]
    kept = kept_sections(out_path)
    if not any(device == "cuda" for (_, device, _) in rows) and not any(k.startswith("<!-- gpu:") for k in kept):
        md += ["## GPU", "",
               "No GPU results: this run had no GPU (the CUDA backend's code is compiled with nvcc in ctest "
               "when nvcc is installed, but no CUDA device was available to run and time it).", ""]
    md += kept
    open(out_path, "w").write("\n".join(md))
    print(f"wrote {out_path}")


if __name__ == "__main__":
    main()
