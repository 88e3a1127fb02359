#!/usr/bin/env python3
"""bench/llvm/report.py RESULTS.md --apps APP.json... [--apps-single APP.json...]
       --latency LATENCY.json
       [--cold COLD.txt] [--load LOAD.txt] [--state STATE.txt]

Writes the "llvm backend" section of bench/RESULTS.md (between the markers
<!-- llvm: ... --> and <!-- /llvm -->, replacing an earlier one; the rest of
the file is kept) from the JSON of the <app>_llvm_bench programs and of
bench/llvm's compile_latency, run with --benchmark_repetitions (bench/run.sh):

- llvm against cpp: every version measured through both backends in one
  process ("<app>/cpu/mcl_<v>/kernel" and "<app>/llvm/mcl_<v>/kernel", same
  size): the median time of each over the repetitions with its range, the
  ratio time_cpp / time_llvm of the medians (above 1: llvm is faster), the
  range of the ratios of repetition i of the one to repetition i of the
  other, and the ratio of the best times;
- llvm against OpenBLAS (matmul, gesummv): time_openblas / time_llvm;
- the same two at one thread (--apps-single), as a cross-check;
- compile latency per example and kernel: the median wall time of
  CompiledKernel::compile with its range, its CPU time, the phases, and, from
  COLD.txt ("<file> <seconds>" lines from `mclc run`, which prints `compile:
  X s`), what a fresh `mclc run` process reports.

Exits 1, after writing, when an example's median compile latency (warm or
through `mclc run`) is 100 ms or more: the goal of the issue.
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
from collections import OrderedDict

BEGIN = "<!-- llvm: written by bench/run.sh (bench/llvm/report.py) -->"
END = "<!-- /llvm -->"
LIMIT_MS = 100.0

UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def seconds(b):
    return b["real_time"] * UNIT[b.get("time_unit", "ns")]


def cpu_seconds(b):
    return b["cpu_time"] * UNIT[b.get("time_unit", "ns")]


def runs_of(path):
    data = json.load(open(path))
    return data.get("context", {}), [b for b in data.get("benchmarks", []) if b.get("run_type") != "aggregate"]


def ms(x):
    return f"{x * 1e3:.4g}"


def span(values):
    return f"{ms(min(values))}-{ms(max(values))}"


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=30).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown CPU"


def app_tables(paths, errors):
    # (app, device, variant, label) -> {repetition: seconds}
    times = OrderedDict()
    for path in paths:
        _, runs = runs_of(path)
        for b in runs:
            parts = b["name"].split("/")
            if len(parts) < 4:
                continue
            app, device, variant = parts[:3]
            if b.get("error_occurred"):
                errors.append(f"{app}/{device}/{variant}: {b.get('error_message', 'error')}")
                continue
            key = (app, device, variant, b.get("label", ""))
            times.setdefault(key, {})[b.get("repetition_index", len(times.get(key, {})))] = seconds(b)
    def order(key):  # the application's order in the files, perfect first, then the version and the size
        app, variant, label = key
        size = [int(x) for x in re.findall(r"\d+", label)]
        return (apps.index(app), variant != "mcl_perfect", variant, size)

    apps = list(OrderedDict.fromkeys(k[0] for k in times))
    versus_cpp, versus_blas = [], []
    for (app, device, variant, label), llvm in times.items():
        if device != "llvm":
            continue
        cpp = times.get((app, "cpu", variant, label))
        if cpp:
            versus_cpp.append((app, variant, label, cpp, llvm))
        blas = times.get((app, "cpu", "openblas", label))
        if blas:
            versus_blas.append((app, variant, label, blas, llvm))
    versus_cpp.sort(key=lambda r: order(r[:3]))
    versus_blas.sort(key=lambda r: order(r[:3]))
    return versus_cpp, versus_blas


def ratio_cells(base, llvm):
    """Cells for time_base / time_llvm: median ratio, per-repetition range, best-time ratio."""
    median = statistics.median(base.values()) / statistics.median(llvm.values())
    paired = [base[i] / llvm[i] for i in base if i in llvm]
    best = min(base.values()) / min(llvm.values())
    rng = f"{min(paired):.2f}-{max(paired):.2f}" if paired else ""
    return median, rng, best


def versus_tables(md, versus_cpp, versus_blas, goals):
    """Appends the llvm-against-cpp and the llvm-against-OpenBLAS tables to md;
    the versions below 1.0 and the ratio of matmul at perfect."""
    below = []
    matmul_perfect = None
    md += ["| application | version | size | cpp (ms) | llvm (ms) | ratio cpp/llvm | per-rep range | best |"
           + (" >= 1.0 |" if goals else ""),
           "|---|---|---|---|---|---|---|---|" + ("---|" if goals else "")]
    for app, variant, label, cpp, llvm in versus_cpp:
        median, rng, best = ratio_cells(cpp, llvm)
        ok = median >= 1.0
        if not ok:
            below.append(f"{app} {variant} ({label}): {median:.2f}")
        if app == "matmul" and variant == "mcl_perfect":
            matmul_perfect = median
        md.append(f"| {app} | {variant} | {label} | {ms(statistics.median(cpp.values()))} ({span(cpp.values())}) | "
                  f"{ms(statistics.median(llvm.values()))} ({span(llvm.values())}) | **{median:.2f}** | {rng} | "
                  f"{best:.2f} |" + (f" {'yes' if ok else 'NO'} |" if goals else ""))
    md.append("")
    if versus_blas:
        md += ["llvm against OpenBLAS (same program, same repetitions; ratio = time_openblas / time_llvm, 1 is as "
               "fast as OpenBLAS):", "",
               "| application | version | size | OpenBLAS (ms) | llvm (ms) | ratio OpenBLAS/llvm | per-rep range | best |",
               "|---|---|---|---|---|---|---|---|"]
        for app, variant, label, blas, llvm in versus_blas:
            median, rng, best = ratio_cells(blas, llvm)
            md.append(f"| {app} | {variant} | {label} | {ms(statistics.median(blas.values()))} "
                      f"({span(blas.values())}) | {ms(statistics.median(llvm.values()))} ({span(llvm.values())}) | "
                      f"**{median:.2f}** | {rng} | {best:.2f} |")
        md.append("")
    return below, matmul_perfect


def latency_rows(path, cold):
    # (file, kernel) -> lists over repetitions
    rows = OrderedDict()
    errors = []
    _, runs = runs_of(path)
    for b in runs:
        name = b["name"]
        if name.endswith("/manual_time"):
            name = name[: -len("/manual_time")]
        parts = name.split("/")
        if parts[0] != "llvm_compile":
            continue
        file, kernel = "/".join(parts[1:-1]), parts[-1]
        if b.get("error_occurred"):
            errors.append(f"{file} ({kernel}): {b.get('error_message', 'error')}")
            continue
        r = rows.setdefault((file, kernel), {"wall": [], "cpu": [], "lower": [], "optimize": [], "generate": []})
        r["wall"].append(seconds(b))
        r["cpu"].append(cpu_seconds(b))
        for phase in ("lower", "optimize", "generate"):
            r[phase].append(b.get(phase + "_ms", 0.0) * 1e-3)
    cold_times = OrderedDict()
    if cold:
        for line in open(cold):
            f, _, s = line.strip().rpartition(" ")
            if f:
                cold_times.setdefault(f, []).append(float(s))
    return rows, cold_times, errors


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--apps", nargs="+", default=[])
    parser.add_argument("--apps-single", nargs="+", default=[], help="the same programs run at one thread")
    parser.add_argument("--latency", required=True)
    parser.add_argument("--cold")
    parser.add_argument("--load")
    parser.add_argument("--state", help="a file saying which compiler was measured")
    args = parser.parse_args()

    errors = []
    versus_cpp, versus_blas = app_tables(args.apps, errors)
    reps = 0
    for path in args.apps:
        _, runs = runs_of(path)
        reps = max([reps] + [b.get("repetitions", 1) for b in runs])
    threads = {k: os.environ[k] for k in ("OMP_NUM_THREADS", "MCL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
               if k in os.environ}

    md = [BEGIN, "## llvm backend: native kernels against the cpp backend, and the engine's compile latency", ""]
    md.append(f"Written by `bench/run.sh` on {datetime.date.today().isoformat()}: {cpu_model()}, "
              f"{os.cpu_count()} cores (a KVM guest shared with other work: the spread below is that noise), "
              + ", ".join(f"{k}={v}" for k, v in threads.items()) + ".")
    if args.load and os.path.exists(args.load):
        md.append("Load average (1, 5, 15 min) before and after the application runs: "
                  + "; ".join(l.strip() for l in open(args.load) if l.strip()) + ".")
    if args.state and os.path.exists(args.state):
        md.append("Measured mclc: " + " ".join(l.strip() for l in open(args.state) if l.strip()))
    md += ["",
           f"Each application program (`build/bench/<app>/<app>_llvm_bench`) holds every version through both "
           f"backends, generated for x86_avx2: the cpp backend's C++ compiled into the program (g++ -O3 "
           f"-march=native, OpenMP) and the llvm backend's object (LLVM O3 for this machine's CPU, `mclc gen "
           f"--cpu native --fp-contract`, the same instructions and rounding; its own thread pool); the llvm "
           f"copy's module is renamed `<version>_llvm` so that both link into one program (the "
           f"kernels are the same text). Sizes and iteration counts are those of the cpp benchmarks; every "
           f"variant is verified against the reference before it is timed. {reps} repetitions, in random "
           f"interleaved order (`--benchmark_enable_random_interleaving`), so that slow phases of the machine "
           f"hit all variants alike. Times in ms: median over the repetitions and (min-max). Ratio = time_cpp / "
           f"time_llvm of the medians (above 1: llvm is faster); 'per-rep range' is the range of time_cpp / "
           f"time_llvm of repetition i of each; 'best' compares the fastest repetition of each.", ""]
    if errors:
        md += ["**Failed (not timed):** " + "; ".join(errors), ""]

    below, matmul_perfect = versus_tables(md, versus_cpp, versus_blas, goals=True)
    if args.apps_single:
        errors = []
        single_cpp, single_blas = app_tables(args.apps_single, errors)
        md += ["### The same at one thread", "",
               "The same programs with OMP_NUM_THREADS = MCL_NUM_THREADS = OPENBLAS_NUM_THREADS = 1: the code each "
               "backend generates, without the two thread runtimes (OpenMP's static schedule and spinning workers, "
               "the llvm pool's dynamic chunks), which react differently when the machine's cores are shared. A "
               "cross-check of the table above, not the goal's measurement.", ""]
        if errors:
            md += ["**Failed (not timed):** " + "; ".join(errors), ""]
        versus_tables(md, single_cpp, single_blas, goals=False)

    rows, cold_times, latency_errors = latency_rows(args.latency, args.cold)
    slow = []
    md += ["### Compile latency of the llvm engine (what `mclc run` pays before running)", "",
           "`build/bench/llvm/compile_latency`: CompiledKernel::compile (lowering, then O3 and code generation in "
           "code generation units on parallel threads, then linking) of every "
           "kernel of every example that loads standalone, at its own level as `mclc run FILE` compiles it; "
           "loading and checking are outside. Wall time of the call, median over the repetitions (each the mean "
           "of Google Benchmark's iterations) with (min-max); CPU time of the calling thread, which compiles the "
           "first unit while the others compile on threads of their own (so it is less than the wall time for a "
           "kernel cut into units, and when other work takes the cores); the phases as `mclc run` sums them. LLVM's one-time "
           "initialization is paid by an untimed compile first. 'mclc run' is the `compile: X s` that a fresh "
           "`mclc run FILE` process prints (its first kernel, one-time initialization included), median of the "
           "runs. An example passes when both medians are below 100 ms.", ""]
    if latency_errors:
        md += ["**Failed:** " + "; ".join(latency_errors), ""]
    md += ["| example | kernel | wall (ms) | CPU (ms) | lower | optimize | generate | mclc run (ms) | < 100 ms |",
           "|---|---|---|---|---|---|---|---|---|"]
    for (file, kernel), r in rows.items():
        wall = statistics.median(r["wall"])
        cold = cold_times.get(file)
        cold_median = statistics.median(cold) if cold else None
        first_kernel = next(k for (f, k) in rows if f == file) == kernel
        ok = wall < LIMIT_MS * 1e-3 and (cold_median is None or not first_kernel or cold_median < LIMIT_MS * 1e-3)
        if not ok:
            slow.append(f"{file} ({kernel}): {ms(wall)} ms"
                        + (f", mclc run {ms(cold_median)} ms" if cold_median is not None and first_kernel else ""))
        md.append(f"| {file} | {kernel} | {ms(wall)} ({span(r['wall'])}) | {ms(statistics.median(r['cpu']))} | "
                  f"{ms(statistics.median(r['lower']))} | {ms(statistics.median(r['optimize']))} | "
                  f"{ms(statistics.median(r['generate']))} | "
                  f"{ms(cold_median) + ' (' + span(cold) + ')' if cold and first_kernel else ''} | "
                  f"{'yes' if ok else '**NO**'} |")
    md.append("")

    md += ["### Goals", ""]
    md.append(f"- every ratio llvm/cpp >= 1.0: " + ("holds" if not below else
                                                     "**does not hold** for " + "; ".join(below)))
    md.append(f"- matmul at perfect >= 5x the cpp backend: "
              + ("not measured" if matmul_perfect is None else
                 ("holds" if matmul_perfect >= 5 else "**does not hold**") + f" ({matmul_perfect:.2f}x)"))
    md.append(f"- compile latency below {LIMIT_MS:.0f} ms for every example: "
              + ("holds" if not slow else f"**FAILS** for {len(slow)} kernels: " + "; ".join(slow)))
    md += ["", END, ""]

    text = open(args.results).read() if os.path.exists(args.results) else "# Benchmark results\n"
    section = "\n".join(md)
    start, end = text.find("<!-- llvm:"), text.find(END)
    if start >= 0 and end > start:
        text = text[:start] + section + text[end + len(END) + 1:]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    open(args.results, "w").write(text)
    print(f"wrote the llvm section of {args.results}")
    for line in md[-6:-3]:
        print(line)
    if slow:
        print(f"FAIL: compile latency >= {LIMIT_MS:.0f} ms: " + "; ".join(slow))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
