#!/usr/bin/env python3
"""bench/runtime/run.py [--repeat R] [--build DIR] [--results FILE] [--gpu --cpu-workers N --bin DIR]

Measures the MCL runtime on this machine and writes the "Runtime" section of
bench/RESULTS.md (between its markers, the rest of the file untouched):
  - per application (examples/runtime), the time of its task phase with one
    CPU worker, with the OpenCL worker (PoCL) alone and with both under dmda;
    Cashmere's efficiency: the throughput with both devices divided by the
    sum of the single-device throughputs;
  - the split of the tasks between the devices under dmda against the split
    the single-device throughputs predict;
  - dynamic (dmda) against static placement (calls bound to the workers in
    turn in the predicted proportion);
  - the cost per task of an empty kernel, with StarPU's own empty codelet
    measured in the same process as the reference.
Every configuration runs R times (default 5); the tables give the median and
the spread (min-max). StarPU calibrates its performance models in a
STARPU_HOME of the build tree before the measured runs.

Here (the default) one CPU worker runs beside one PoCL worker limited to one
compute thread. On a GPU machine (bench/runtime/gpu.sh packs what it needs)
--gpu leaves PoCL out (the OpenCL worker is the GPU), --cpu-workers sets the
CPU workers and --bin names the folder of the programs.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
from datetime import date
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APPS = {  # name: arguments of a run large enough to dwarf the runtime's overhead
    "matmul": ["--size", "1024", "--tile", "256"],
    "kmeans": ["--size", "400000", "--chunk", "25000", "--iterations", "4"],
    "nbody": ["--size", "6144", "--chunk", "512", "--iterations", "2"],
}
WORKERS = {"cpu": ("1", "0"), "opencl": ("0", "1"), "both": ("1", "1")}
GPU = False


def run(cmd, ncpu, nopencl, home):
    env = dict(os.environ, STARPU_NCPU=ncpu, STARPU_NOPENCL=nopencl, STARPU_HOME=home, STARPU_SILENT="1",
               OMP_NUM_THREADS="1")
    if GPU:
        env["STARPU_OPENCL_ON_CPUS"] = "0"
    else:
        env["POCL_CPU_MAX_CU_COUNT"] = "1"
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
    return out.stdout


def parse(output):
    seconds = float(re.search(r"tasks took ([0-9.e+-]+) s", output).group(1))
    cpu = sum(int(m) for m in re.findall(r"^  CPU \d+ .*\]: (\d+)$", output, re.M))
    opencl = sum(int(m) for m in re.findall(r"^  OpenCL \d+ .*\]: (\d+)$", output, re.M))
    return seconds, cpu, opencl


def median_run(runs):
    """The run with the median time, and the spread of the times."""
    ordered = sorted(runs, key=lambda r: r[0])
    return ordered[len(ordered) // 2], (ordered[0][0], ordered[-1][0])


def small_ratio(share):
    """Calls per CPU worker and per OpenCL worker in a round, as small integers."""
    share = min(max(share, 1 / 8), 7 / 8)
    f = Fraction(share).limit_denominator(8)
    return f.numerator, f.denominator - f.numerator


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--results", default=os.path.join(ROOT, "bench", "RESULTS.md"))
    parser.add_argument("--gpu", action="store_true", help="the OpenCL worker is a GPU; leave PoCL out")
    parser.add_argument("--cpu-workers", type=int, default=1)
    parser.add_argument("--bin", help="the folder of runtime_<app> and runtime_overhead (default: the build tree)")
    args = parser.parse_args()
    global GPU
    GPU = args.gpu
    n = str(args.cpu_workers)
    WORKERS.update(cpu=(n, "0"), both=(n, "1"))
    home = os.path.join(args.bin or os.path.join(args.build, "bench"), "runtime-starpu-home")
    os.makedirs(home, exist_ok=True)
    rows, overhead_rows = [], []
    for app, app_args in APPS.items():
        binary = os.path.join(args.bin or os.path.join(args.build, "examples", "runtime"), f"runtime_{app}")
        for _ in range(3):  # calibration: dmda needs history for both kinds of worker
            run([binary] + app_args, *WORKERS["both"], home)
        results = {}
        for config, (ncpu, nopencl) in WORKERS.items():
            results[config] = median_run([parse(run([binary] + app_args, ncpu, nopencl, home))
                                          for _ in range(args.repeat)])
            print(app, config, results[config], flush=True)
        t_cpu, t_ocl, t_both = (results[c][0][0] for c in ("cpu", "opencl", "both"))
        predicted_cpu_share = (1 / t_cpu) / (1 / t_cpu + 1 / t_ocl)
        a, b = small_ratio(predicted_cpu_share)
        static = median_run([parse(run([binary] + app_args + ["--static", "--split", f"{a},{b}"], *WORKERS["both"],
                                       home))
                             for _ in range(args.repeat)])
        print(app, "static", static, flush=True)
        _, cpu_tasks, ocl_tasks = results["both"][0]
        rows.append(dict(app=app, args=" ".join(app_args), results=results, static=static, split=(a, b),
                         efficiency=(1 / t_both) / (1 / t_cpu + 1 / t_ocl),
                         predicted=predicted_cpu_share, actual=cpu_tasks / max(cpu_tasks + ocl_tasks, 1)))
    overhead = os.path.join(args.bin or os.path.join(args.build, "bench"), "runtime_overhead")
    for config in ("cpu", "opencl"):
        runs = []
        for _ in range(args.repeat):
            out = run([overhead, "2000"], *WORKERS[config], home)
            runs.append((float(re.search(r"mcl_rt_us_per_task: ([0-9.e+-]+)", out).group(1)),
                         float(re.search(r"starpu_us_per_task: ([0-9.e+-]+)", out).group(1))))
        mcl = sorted(r[0] for r in runs)
        raw = sorted(r[1] for r in runs)
        overhead_rows.append((config, mcl, raw))
        print("overhead", config, statistics.median(mcl), statistics.median(raw), flush=True)
    write(args.results, rows, overhead_rows, args.repeat, args)


def spread(results):
    (seconds, _, _), (low, high) = results
    return f"{seconds:.3f} ({low:.3f}-{high:.3f})"


def write(path, rows, overhead_rows, repeat, args):
    cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True,
                         text=True).stdout.strip()
    lines = ["<!-- runtime: written by bench/runtime/run.py -->", "## Runtime (StarPU): many kernels over CPU and OpenCL workers", "",
             f"Written by `bench/runtime/run.py` on {date.today()}: {cpu}, {os.cpu_count()} logical cores; "
             + (f"{args.cpu_workers} CPU workers and the GPU through its OpenCL driver. " if args.gpu else
                "one CPU worker and one OpenCL worker (PoCL limited to one compute thread, POCL_CPU_MAX_CU_COUNT=1). ") +
             f"Each configuration ran {repeat} times after three calibration runs; times are the median of the task "
             "phase (submit to results gathered) with the spread (min-max) in parentheses.", "",
             "On this 2-core machine the devices are not independent: the CPU worker, PoCL's compute thread and "
             "StarPU's OpenCL driver thread (which polls for completions) share the two cores, so the sum of the "
             "single-device throughputs overstates what both can do together, and efficiency below 1 measures that "
             "contention as much as the scheduler. On a machine with a GPU the OpenCL worker's compute does not take "
             "a core (bench/runtime/gpu.sh).", "",
             f"| application | cpu only, {args.cpu_workers} worker(s) (s) | opencl only (s) | both, dmda (s) | efficiency | CPU share of tasks: dmda / predicted | both, static split (s) | dmda vs static |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        res = r["results"]
        t_both = res["both"][0][0]
        t_static = r["static"][0][0]
        a, b = r["split"]
        lines.append(f"| {r['app']} (`{r['args']}`) | {spread(res['cpu'])} | {spread(res['opencl'])} | "
                     f"{spread(res['both'])} | {r['efficiency']:.2f} | {r['actual']:.2f} / {r['predicted']:.2f} | "
                     f"{spread(r['static'])} ({a}:{b}) | {t_static / t_both:.2f}x |")
    if args.gpu:
        del lines[5:7]  # the note on sharing two cores
    lines += ["", "Efficiency is Cashmere's: throughput with both / (throughput CPU only + throughput OpenCL only); "
              "the predicted CPU share is the CPU's part of the summed single-device throughputs; the static run binds "
              "calls to the workers in turn in that proportion (`--static --split a,b`); dmda vs static is the static "
              "time over the dmda time (above 1: dmda is faster).", "",
              "| overhead per task (empty kernel, 2000 tasks) | mcl::rt (us) | StarPU empty codelet (us), same process |",
              "|---|---|---|"]
    for config, mcl, raw in overhead_rows:
        lines.append(f"| {config} worker | {statistics.median(mcl):.1f} ({mcl[0]:.1f}-{mcl[-1]:.1f}) | "
                     f"{statistics.median(raw):.1f} ({raw[0]:.1f}-{raw[-1]:.1f}) |")
    lines += ["", "StarPU's empty codelet launches nothing. On CPU workers the difference is what mcl::rt adds per task "
              "(unpacking the arguments, the worker's version, the accounting and the completion callback); on OpenCL "
              "workers it is mostly the OpenCL launch of the empty kernel (the glue creates a cl::Kernel, enqueues it "
              "and waits for the queue)."]
    lines.append("<!-- /runtime -->")
    section = "\n".join(lines) + "\n"
    text = open(path).read() if os.path.exists(path) else "# Benchmark results\n"
    start, end = text.find("<!-- runtime"), text.find("<!-- /runtime -->")
    if start >= 0 and end >= 0:
        text = text[:start] + section + text[end + len("<!-- /runtime -->\n"):]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    open(path, "w").write(text)


if __name__ == "__main__":
    main()
