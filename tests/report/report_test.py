#!/usr/bin/env python3
"""tests/report/report_test.py MODE MCLC SOURCE_DIR WORK_DIR [SCREENSHOT_COPY]

The `mclc report` page, checked as a person sees it.

MODE html: the report for examples/matmul/*.mcl at hopper with --param values
  and the hand-written tests/report/matmul_bench.json: exit 0, a
  self-contained page (no http(s) references, no <script>, <link>, @import
  or url()), the escaped source, the roofline SVG and the versions table with
  the matched measurements; then headless Chromium renders it and the
  screenshot must not be blank and must show the roof lines' colour (only the
  roof lines use it). Exits 77 (skipped) only when chromium is not installed.
  SCREENSHOT_COPY, when given, receives a copy of the screenshot.
MODE doubles: tests/report/double_poly.mcl, all of whose computations are in
  double precision: at hopper the page gives the double-precision peak, draws
  its dashed roof, puts the kernel's point on it and shows the part in double
  precision in the versions table; at fermi (no op("double", k)) it says the
  doubles are taken at the single-precision rate and draws no second roof.
MODE errors: unknown level, missing file, bad --bench JSON (exit 1, a clear
  message, no page written), bad --param (exit 2), and a page without
  --param values that says why it has no plot.
"""
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

ROOF_COLOUR = (0xE4, 0x00, 0x7C)  # kRoofColour in feedback/Report.cpp

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(args):
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    channels = 3 if colour == 2 else 4
    stride = width * channels
    raw = zlib.decompress(idat)
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else up_left
                line[i] = (line[i] + pred) & 0xFF
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def html_mode(mclc, source, work):
    files = sorted(glob.glob(os.path.join(source, "examples", "matmul", "*.mcl")))
    bench = os.path.join(source, "tests", "report", "matmul_bench.json")
    out = os.path.join(work, "report.html")
    if os.path.exists(out):
        os.remove(out)
    status, stdout, stderr = run([mclc, "report", *files, "--hwd", "hopper", "--param", "n=8192", "--param",
                                  "m=8192", "--param", "p=8192", "--bench", bench, "-o", out])
    check(status == 0, f"mclc report exits 0, not {status}: {stderr}")
    if status != 0:
        return None
    html = open(out, encoding="utf-8").read()
    # Self-contained: nothing the page needs lies outside it.
    check(not re.search(r"https?://", html), "no http(s) reference")
    check(not re.search(r"<script", html, re.I), "no <script>")
    check(not re.search(r"<link|<img|<iframe|@import|url\(", html, re.I), "no <link>, <img>, <iframe>, @import, url()")
    check(re.search(r'<svg id="roofline"', html) is not None, 'the plot: <svg id="roofline">')
    check(html.count("<circle") >= 1, "points in the plot")
    check('<polyline id="double-roof"' in html, "hopper's double-precision roof is drawn")
    # The source is escaped ("k < p" in the loop of matmul.mcl).
    check("k &lt; p" in html and "k < p" not in html, "source text is HTML-escaped")
    for f in files:
        check(os.path.basename(f) in html, f"{os.path.basename(f)} in the page")
    check("limited by" in html and "bound" in html, "bound remarks inline")
    # Versions table: each row's measurement is its own.
    rows = html.split("<tr>")
    def row_of(name):
        for r in rows:
            if f"{name}</code></td>" in r:
                return r
        return ""
    check("matmul/cuda/mcl_hopper_v2/kernel" in row_of("matmul_hopper_v2.mcl"), "hopper_v2 measurement in its row")
    check("41.5 ms" in row_of("matmul_hopper_v2.mcl"), "41.5 ms in the hopper_v2 row")
    check("matmul/cuda/mcl_hopper/kernel" in row_of("matmul_hopper.mcl"), "hopper measurement in its row")
    check("mcl_hopper_v2" not in row_of("matmul_hopper.mcl"), "hopper_v2 not in the hopper row")
    check("mcl_gpu_v1/kernel" in row_of("matmul_gpu_v1.mcl"), "gpu_v1 measurement in its row")
    check(all("cublas" not in row_of(os.path.basename(f)) for f in files), "cublas matches no version")
    check("computation" in row_of("matmul.mcl"), "matmul at hopper is limited by computation at 8192")

    # The measured H100 results name every app: another app's variant of the
    # same name (gesummv/cuda/mcl_perfect) is not matmul.mcl's.
    measured = os.path.join(source, "bench", "gpu", "results", "h100-2026-11-23.json")
    real_out = os.path.join(work, "report_h100.html")
    status, _, stderr = run([mclc, "report", *files, "--hwd", "hopper", "--param", "n=4096", "--param", "m=4096",
                             "--param", "p=4096", "--bench", measured, "-o", real_out])
    check(status == 0, f"mclc report with the H100 results exits 0, not {status}: {stderr}")
    real = open(real_out, encoding="utf-8").read()
    check("gesummv/" not in real, "no gesummv benchmark matched to a matmul version")
    rows = real.split("<tr>")
    check("matmul/cuda/mcl_perfect/kernel" in row_of("matmul.mcl"), "matmul.mcl has its own H100 time")

    # As a person sees it: headless Chromium.
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: chromium is not installed (scripts/setup installs it)")
        return 77
    png = os.path.join(work, "report.png")
    if os.path.exists(png):
        os.remove(png)
    profile = os.path.join(work, "chromium-profile")
    status, stdout, stderr = run([chromium, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
                                  f"--user-data-dir={profile}", f"--screenshot={png}", "--window-size=1200,1600",
                                  "file://" + os.path.abspath(out)])
    check(os.path.exists(png), f"chromium wrote a screenshot (exit {status}): {stderr[-2000:]}")
    if not os.path.exists(png):
        return None
    width, height, pixels = read_png(png)
    check((width, height) == (1200, 1600), f"screenshot is 1200x1600, not {width}x{height}")
    colours, non_white, roof = set(), 0, 0
    for row in pixels:
        for p in row:
            colours.add(p)
            if p != (255, 255, 255):
                non_white += 1
            if all(abs(a - b) <= 12 for a, b in zip(p, ROOF_COLOUR)):
                roof += 1
    print(f"screenshot: {width}x{height}, {len(colours)} colours, {non_white} non-white pixels, {roof} roof pixels")
    check(len(colours) > 20, "the screenshot is not blank (more than 20 colours)")
    check(non_white > width * height // 50, "the screenshot is not blank (more than 2% non-white)")
    check(roof > 200, "the roof lines' colour is in the screenshot")
    return png


def errors_mode(mclc, source, work):
    matmul = os.path.join(source, "examples", "matmul", "matmul.mcl")
    out = os.path.join(work, "error-report.html")

    def report(*args):
        if os.path.exists(out):
            os.remove(out)
        return run([mclc, "report", *args, "-o", out])

    status, _, err = report(matmul, "--hwd", "hoper")
    check(status == 1, f"unknown level: exit 1, not {status}")
    check("unknown hardware description 'hoper'" in err and "hopper" in err, f"unknown level named: {err}")
    check(not os.path.exists(out), "no page for an unknown level")

    missing = os.path.join(work, "no_such_kernel.mcl")
    status, _, err = report(missing, "--hwd", "hopper")
    check(status == 1, f"missing file: exit 1, not {status}")
    check("no_such_kernel.mcl" in err, f"missing file named: {err}")
    check(not os.path.exists(out), "no page for a missing file")

    bad = os.path.join(work, "bad_bench.json")
    with open(bad, "w") as f:
        f.write('{"benchmarks": [\n  {"name": "x", "real_time": }\n]}\n')
    status, _, err = report(matmul, "--hwd", "hopper", "--bench", bad)
    check(status == 1, f"bad JSON: exit 1, not {status}")
    check("bad_bench.json: error: not valid JSON" in err and "line 2" in err, f"bad JSON located: {err}")
    check(not os.path.exists(out), "no page for bad JSON")

    with open(bad, "w") as f:
        f.write('{"benchmarks": [{"name": "x", "real_time": "fast"}]}\n')
    status, _, err = report(matmul, "--hwd", "hopper", "--bench", bad)
    check(status == 1 and "benchmarks[0] (x): expected a number \"real_time\"" in err, f"bad benchmark entry: {err}")

    status, _, err = report(matmul, "--hwd", "hopper", "--bench", os.path.join(work, "absent.json"))
    check(status == 1 and "the benchmark results: cannot read" in err and "absent.json': No such file" in err,
          f"absent bench file: {status} {err}")
    status, _, err = report(matmul, "--hwd", "hopper", "--bench", work)
    check(status == 1 and "': it is a directory" in err, f"a directory as the bench file: {status} {err}")

    graph = os.path.join(source, "examples", "cnc", "cholesky", "cholesky.cnc")
    status, _, err = report(graph, "--hwd", "hopper")
    check(status == 1 and "is a Concurrent Collections graph" in err, f"a graph is refused: {status} {err}")

    status, _, err = report(matmul, "--hwd", "hopper", "--param", "n")
    check(status == 2, f"bad --param: exit 2, not {status}")

    status, _, err = report(matmul, "--hwd", "hopper")
    check(status == 0, f"no --param: exit 0, not {status}: {err}")
    if status == 0:
        html = open(out, encoding="utf-8").read()
        check('id="roofline"' not in html, "no plot without values")
        check("No roofline plot" in html and "--param" in html, "the page says why there is no plot")
        check("needs values for m, n, p" in html, "the missing values are named")

    status, _, err = report(matmul, "--hwd", "perfect", "--param", "n=64", "--param", "m=64", "--param", "p=64")
    check(status == 0, f"at perfect: exit 0, not {status}: {err}")
    if status == 0:
        html = open(out, encoding="utf-8").read()
        check("does not describe both" in html, "perfect has no roofs: the page says so")
    return None


def doubles_mode(mclc, source, work):
    kernel = os.path.join(source, "tests", "report", "double_poly.mcl")
    out = os.path.join(work, "double-report.html")
    status, _, err = run([mclc, "report", kernel, "--hwd", "hopper", "--param", "n=100000000", "-o", out])
    check(status == 0, f"double_poly at hopper: exit 0, not {status}: {err}")
    if status == 0:
        html = open(out, encoding="utf-8").read()
        check("peak in double precision: 33.5 T computations/s" in html, "the double-precision peak of hopper")
        roof = re.search(r'<polyline id="double-roof" points="[\d.]+,([\d.]+) [\d.]+,([\d.]+)"', html)
        check(roof is not None and roof.group(1) == roof.group(2), "a flat double-precision roof")
        point = re.search(r'<circle cx="[\d.]+" cy="([\d.]+)"', html)
        check(roof is not None and point is not None and abs(float(point.group(1)) - float(roof.group(1))) < 0.2,
              f"the all-double, compute-bound point lies on the double roof: {point and point.group(0)}")
        check("40 G<br>in double precision: 40 G" in html, "the versions table shows the part in double precision")
    status, _, err = run([mclc, "report", kernel, "--hwd", "fermi", "--param", "n=100000000", "-o", out])
    check(status == 0, f"double_poly at fermi: exit 0, not {status}: {err}")
    if status == 0:
        html = open(out, encoding="utf-8").read()
        check('id="roofline"' in html and 'id="double-roof"' not in html, "fermi: one roof only")
        check("taken at the single-precision rate" in html, "fermi: the page says how doubles are timed")
    return None


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    mode, mclc, source, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    modes = {"html": html_mode, "doubles": doubles_mode, "errors": errors_mode}
    if mode not in modes:
        print(__doc__)
        return 2
    result = modes[mode](mclc, source, work)
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    if result == 77:
        return 77
    if mode == "html" and len(sys.argv) > 5 and result:
        shutil.copyfile(result, sys.argv[5])
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
