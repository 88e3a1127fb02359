#!/usr/bin/env bash
# each_show_hwd_json.sh MCLC
# `mclc show-hwd NAME --json` for every description in `mclc list-hwd`: valid
# JSON with the parallelism tree, the device tree and normalised numbers.
set -eu
mclc=$1
names=$("$mclc" list-hwd | sed 's/^ *//')
count=0
for n in $names; do
  "$mclc" show-hwd "$n" --json | python3 -c '
import json, sys
m = json.load(sys.stdin)
name = sys.argv[1]
assert m["name"] == name, m["name"]
p = m["parallelism"]
assert p["memory_spaces"], "no top-level memory space"
assert "par_group" in p and "par_unit" in p["par_group"], "no par_group"
assert p["executing_par_unit"], "no executing par_unit"
d = m["device"]
assert d["kind"] == "device" and d["name"] == name, "device block"
def walk(n):
    yield n
    for c in n.get("children", []):
        yield from walk(c)
for node in walk(d):
    for k in ("capacity_bytes", "latency_cycles", "bandwidth_bytes_per_second", "clock_frequency_hz"):
        v = node.get(k)
        assert v is None or v == "unlimited" or (isinstance(v, int) and v >= 0), (node["path"], k, v)
' "$n"
  count=$((count + 1))
done
echo "$count descriptions shown as JSON"
