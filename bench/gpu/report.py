#!/usr/bin/env python3
"""Writes the GPU section of bench/RESULTS.md from the JSON that
bench/gpu/run.sh (gpu_results.json) and bench/gpu/units/run.sh
(units_results.json) wrote on one GPU machine, between the markers
<!-- gpu: ... --> and <!-- /gpu --> (bench/report.py keeps that section when
it rewrites the CPU results). The tables:
  - per application, every entry with its time, its rate, the fraction of
    the device-to-device copy bandwidth measured in the same run (for the
    bandwidth-bound applications), and its ratio to the library and to the
    naive hand-written kernel (reference time / time: above 1 is faster);
  - the goals of issue 17 (matmul >= 0.80 of cuBLAS; gesummv, spmv,
    histogram and blackscholes >= 0.90 of the copy bandwidth; every perfect
    version >= 1.0 of the naive kernel), each with the measured figure;
  - the llvm backend's PTX against the cuda backend, version by version
    (and with --fp-contract, given a run of the llvm variants built so);
  - the threads-per-block experiment: each perfect kernel's time per block
    size over the best block size of its row.

usage: report.py RESULTS.md --results GPU.json --units UNITS.json
                 [--fp-contract GPU.json] --source TEXT
"""
import argparse
import json
import re

BANDWIDTH_BOUND = ("gesummv", "spmv", "histogram", "blackscholes")
LIBRARY = {"matmul": "cublas", "gesummv": "cublas", "spmv": "cusparse"}
APPS = ("matmul", "gesummv", "spmv", "histogram", "blackscholes", "convolution")


def load(path):
    """The GPU's name and the entries of a JSON in order, as (name, entry)
    with the entry's seconds, GFLOPS, GB/s, label and error."""
    data = json.load(open(path))
    seconds = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
    entries = [(b["name"], {
        "seconds": b["real_time"] * seconds[b.get("time_unit", "s")],
        "gflops": b.get("GFLOPS"), "gbps": b.get("GBps"), "label": b.get("label", ""),
        "error": b.get("error_message") if b.get("error_occurred") else None,
    }) for b in data["benchmarks"]]
    return data.get("context", {}).get("host_name", "unknown GPU"), entries


def copy_bandwidth(entries):
    rates = [e["gbps"] for name, e in entries.items() if name.startswith("copy/") and e["gbps"] and not e["error"]]
    return max(rates) if rates else None


def app_table(app, entries, copy):
    rows = {name.split("/")[2]: e for name, e in entries.items()
            if name.startswith(app + "/") and name.endswith("/kernel")}
    library, naive = rows.get(LIBRARY.get(app)), rows.get("naive_cuda")
    header = ["variant", "size", "time (ms)", "rate"]
    if app in BANDWIDTH_BOUND:
        header.append("of copy bandwidth")
    if library:
        header.append(f"vs {LIBRARY[app]}")
    header.append("vs naive_cuda")
    lines = [f"### {app}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for variant, e in rows.items():
        if e["error"]:
            lines.append(f"| {variant} | {e['label']} | failed: {e['error']} |" + " |" * (len(header) - 3))
            continue
        rate = f"{e['gflops']:.0f} GFLOP/s" if e["gflops"] else f"{e['gbps']:.0f} GB/s" if e["gbps"] else ""
        cells = [variant, e["label"], f"{e['seconds'] * 1e3:.3f}", rate]
        if app in BANDWIDTH_BOUND:
            cells.append(f"{e['gbps'] / copy:.2f}" if e["gbps"] and copy else "")
        if library:
            cells.append(f"{library['seconds'] / e['seconds']:.2f}")
        cells.append(f"{naive['seconds'] / e['seconds']:.2f}" if naive else "")
        lines.append("| " + " | ".join(cells) + " |")
    transfers = [(n.split("/")[2], e) for n, e in entries.items()
                 if n.startswith(app + "/") and n.endswith("/with_transfers") and not e["error"]]
    for variant, e in transfers:
        lines += ["", f"With the copies to and from the device on every call (host-pointer API), {variant}: "
                      f"{e['seconds'] * 1e3:.1f} ms."]
    return lines + [""]


def best_generated(entries, app, prefix="mcl_"):
    rows = [(n.split("/")[2], e) for n, e in entries.items()
            if n.startswith(f"{app}/cuda/{prefix}") and n.endswith("/kernel") and not e["error"]]
    return min(rows, key=lambda r: r[1]["seconds"]) if rows else (None, None)


def goals(entries, copy):
    def kernel(app, variant):
        e = entries.get(f"{app}/cuda/{variant}/kernel")
        return e if e and not e["error"] else None

    lines = ["### Goals of issue 17", "", "| goal | measured | met |", "|---|---|---|"]
    variant, best = best_generated(entries, "matmul")
    cublas = kernel("matmul", "cublas")
    if best and cublas:
        ratio = cublas["seconds"] / best["seconds"]
        lines.append(f"| matmul >= 0.80 of cuBLAS FP32 | {variant}: {ratio:.3f} | {'yes' if ratio >= 0.8 else '**no**'} |")
    for app in BANDWIDTH_BOUND:
        variant, best = best_generated(entries, app)
        if best and best["gbps"] and copy:
            ratio = best["gbps"] / copy
            lines.append(f"| {app} >= 0.90 of the copy bandwidth | {variant}: {ratio:.3f} "
                         f"({best['gbps']:.0f} of {copy:.0f} GB/s) | {'yes' if ratio >= 0.9 else '**no**'} |")
    for app in APPS:
        perfect, naive = kernel(app, "mcl_perfect"), kernel(app, "naive_cuda")
        if perfect and naive:
            ratio = naive["seconds"] / perfect["seconds"]
            lines.append(f"| {app} perfect >= 1.0 of naive CUDA | {ratio:.3f} | {'yes' if ratio >= 1.0 else '**no**'} |")
    return lines + [""]


def llvm_table(entries, fp_contract, fp_contract_path):
    header = ["application", "version", "cuda (ms)", "llvm (ms)", "cuda / llvm"]
    if fp_contract:
        header += ["llvm --fp-contract (ms)", "cuda / llvm --fp-contract (same run)"]
    lines = ["### The llvm backend's PTX against the cuda backend", "",
             "The same versions through `mclc gen --backend llvm --target hopper` (PTX that LLVM's NVPTX target "
             "writes, loaded with the CUDA driver API) and through the cuda backend (nvcc -O3), in the same run. "
             "The llvm backend contracts no multiply and add into an FMA unless asked (`--fp-contract`), so that "
             "it computes what the interpreter does; nvcc contracts by default."
             + (" The last two columns come from another run (" + fp_contract_path + "), in which the llvm "
                "variants were generated with `--fp-contract`, against the cuda variants of that run; its code "
                "can be older than the columns before, so compare them with each other only." if fp_contract
                else ""), "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, e in entries.items():
        parts = name.split("/")
        if parts[3] != "kernel" or not parts[2].startswith("mcl_"):
            continue
        llvm = entries.get(f"{parts[0]}/cuda/llvm_{parts[2][4:]}/kernel")
        if not llvm or e["error"] or llvm["error"]:
            continue
        cells = [parts[0], parts[2][4:], f"{e['seconds'] * 1e3:.3f}", f"{llvm['seconds'] * 1e3:.3f}",
                 f"{e['seconds'] / llvm['seconds']:.2f}"]
        if fp_contract:
            cuda_fc, llvm_fc = fp_contract.get(name), fp_contract.get(f"{parts[0]}/cuda/llvm_{parts[2][4:]}/kernel")
            ok = cuda_fc and llvm_fc and not cuda_fc["error"] and not llvm_fc["error"]
            cells += [f"{llvm_fc['seconds'] * 1e3:.3f}" if ok else "",
                      f"{cuda_fc['seconds'] / llvm_fc['seconds']:.2f}" if ok else ""]
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def units_table(units):
    rows = {}
    for name, e in units:
        _, app, threads, _ = name.split("/")
        rows.setdefault((app, e["label"]), {})[threads[1:]] = e
    # translation's choice ("fill", where measured) first, then the fixed sizes, largest first
    sizes = sorted({t for r in rows.values() for t in r}, key=lambda t: (0, 0) if t == "fill" else (1, -int(t)))
    lines = ["### Threads per block of perfect kernels", "",
             "bench/gpu/units runs each application's perfect version generated for hopper with a fixed number "
             "of threads per block in place of the one translation chose (every variant checked against the "
             "1024-thread one), at the benchmark size and at a smaller one; `fill` is translation's own choice "
             "(enough threads to spread the work over every multiprocessor; before it, translation took gpu's "
             "`max_nr_units`, 1024). Time over the best time of the row (1.00 is the best block size; the best "
             "time in ms in the last column).", "",
             "| application | size | " + " | ".join(f"{t}" for t in sizes) + " | best (ms) |",
             "|" + "---|" * (len(sizes) + 3)]
    for (app, label), by_threads in rows.items():
        ok = {t: e for t, e in by_threads.items() if not e["error"]}
        if not ok:
            continue
        best = min(e["seconds"] for e in ok.values())
        cells = [app, label] + [f"{ok[t]['seconds'] / best:.2f}" if t in ok else "failed" for t in sizes]
        lines.append("| " + " | ".join(cells) + f" | {best * 1e3:.3f} |")
    return lines + [""]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results_md")
    parser.add_argument("--results", required=True)
    parser.add_argument("--units", required=True)
    parser.add_argument("--fp-contract")
    parser.add_argument("--source", required=True, help="where the JSON came from (machine, commit, date)")
    args = parser.parse_args()
    device, entries = load(args.results)
    entries = dict(entries)  # one entry per name in bench/gpu's results
    units_device, units = load(args.units)
    fp_contract = dict(load(args.fp_contract)[1]) if args.fp_contract else None
    copy = copy_bandwidth(entries)
    md = [f"<!-- gpu: written by bench/gpu/report.py from {args.results} and {args.units} -->",
          "## GPU: the generated CUDA and PTX against cuBLAS, cuSPARSE and naive CUDA", "",
          f"{device}: {args.source}. Every entry was verified against the library or naive kernel before it was "
          "timed (best of the timed calls, CUDA events, data on the device: the resident API). "
          f"Device-to-device copy bandwidth in the same run (bytes read + written): {copy:.0f} GB/s. "
          "`mcl_<version>`: the cuda backend; `llvm_<version>`: the llvm backend's PTX.", ""]
    md += goals(entries, copy)
    for app in APPS:
        md += app_table(app, entries, copy)
    md += llvm_table(entries, fp_contract, args.fp_contract)
    if units_device != device:
        md += [f"(The block-size experiment ran on {units_device}.)", ""]
    md += units_table(units)
    md.append("<!-- /gpu -->")
    section = "\n".join(md) + "\n"

    text = open(args.results_md).read()
    marked = re.compile(r"<!-- gpu: .*?<!-- /gpu -->\n?", re.S)
    placeholder = re.compile(r"## GPU\n\nNo GPU results:.*?\n\n", re.S)
    if marked.search(text):
        text = marked.sub(lambda _: section, text)
    elif placeholder.search(text):
        text = placeholder.sub(lambda _: section + "\n", text)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    open(args.results_md, "w").write(text)
    print(f"wrote the GPU section of {args.results_md}")


if __name__ == "__main__":
    main()
