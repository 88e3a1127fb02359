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
                     f"library build: {c.get('library_build_type', '?')}")
    try:
        out = subprocess.run(["clinfo", "-l"], capture_output=True, text=True, timeout=30).stdout.strip()
        if out:
            lines.append("- OpenCL: " + "; ".join(l.strip() for l in out.splitlines()))
    except (OSError, subprocess.SubprocessError):
        pass
    threads = {k: os.environ[k] for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "POCL_CPU_MAX_CU_COUNT")
               if k in os.environ}
    if threads:
        lines.append("- Threads: " + ", ".join(f"{k}={v}" for k, v in threads.items()))
    return lines


def main():
    out_path, inputs = sys.argv[1], sys.argv[2:]
    rows = OrderedDict()  # (app, device, what) -> list of (variant, rate, unit, label, time)
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
            rows.setdefault(key, []).append((variant, rate, unit, b.get("label", ""), seconds))

    md = ["# Benchmark results", "",
          f"Written by `bench/run.sh` on {datetime.date.today().isoformat()}.", ""]
    md += machine_lines(contexts)
    md += ["", "Rates are per call; `kernel` keeps the data on the device (resident API), "
           "`with_transfers` copies in and out on every call. Ratios compare with references "
           "measured in the same run; a ratio >= 1 is as fast as the reference.", ""]
    summary = []
    for (app, device, what), entries in rows.items():
        refs = [e for e in entries if not e[0].startswith("mcl_") and e[1]]
        perfect = next((e for e in entries if e[0] == "mcl_perfect" and e[1]), None)
        md.append(f"## {app} on {device} ({what})")
        md.append("")
        header = ["variant", "size", "time (s)", "rate"] + [f"vs {r[0]}" for r in refs]
        if perfect:
            header.append("speed-up vs mcl_perfect")
        md.append("| " + " | ".join(header) + " |")
        md.append("|" + "---|" * len(header))
        for variant, rate, unit, label, seconds in entries:
            if rate is None:
                md.append(f"| {variant} | | | failed: {label} |" + " |" * (len(header) - 4))
                continue
            cells = [variant, label, f"{seconds:.4g}", f"{rate:.3g} {unit}"]
            cells += [f"{rate / r[1]:.2f}" for r in refs]
            if perfect:
                cells.append(f"{rate / perfect[1]:.2f}" if variant.startswith("mcl_") else "")
            md.append("| " + " | ".join(cells) + " |")
        md.append("")
        generated = [e for e in entries if e[0].startswith("mcl_") and e[1]]
        if perfect and generated:
            best = max(generated, key=lambda e: e[1])
            summary.append(f"| {app} | {device} | {what} | {best[0]} | {best[1] / perfect[1]:.2f} | "
                           + ", ".join(f"{best[1] / r[1]:.2f} x {r[0]}" for r in refs) + " |")
    if summary:
        md += ["## Summary: best generated version per application and device", "",
               "| application | device | measured | best version | speed-up vs perfect | vs references |",
               "|---|---|---|---|---|---|"] + summary + [""]
    open(out_path, "w").write("\n".join(md))
    print(f"wrote {out_path}")


if __name__ == "__main__":
    main()
