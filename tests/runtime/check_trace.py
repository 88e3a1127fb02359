#!/usr/bin/env python3
"""check_trace.py TRACE [--fallback]: TRACE is a valid Chrome trace (the JSON
object form that chrome://tracing and Perfetto open) of a runtime run: every
task a complete event ("ph": "X") with a time, a duration, a worker track
named by a thread_name record, its kernel, version, leaf and bytes moved;
tasks on at least two kinds of device (the [kind] in the track names).
With --fallback, at least one task is marked as run again after a failure."""
import json
import sys


def main():
    path = sys.argv[1]
    with open(path) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    tasks = [e for e in events if e.get("ph") == "X"]
    assert tasks, "no task events"
    kinds = set()
    for t in tasks:
        for key in ("name", "ts", "dur", "pid", "tid", "args"):
            assert key in t, f"task event without {key}: {t}"
        assert isinstance(t["ts"], (int, float)) and t["dur"] >= 0, t
        for key in ("version", "leaf", "bytes_moved"):
            assert key in t["args"], f"task without {key}: {t}"
        assert t["args"]["version"] and t["args"]["leaf"], t
        track = names.get((t["pid"], t["tid"]))
        assert track, f"task on a track without a name: {t}"
        kinds.add(("OpenCL" if track.startswith("OpenCL") else "CPU"))
    assert len(kinds) >= 2, f"tasks on one kind of device only: {kinds}"
    if "--fallback" in sys.argv:
        assert any("fallback" in t["args"] for t in tasks), "no task marked as run again"
    print(f"{path}: {len(tasks)} tasks on {sorted(kinds)}, {len(names)} tracks")


if __name__ == "__main__":
    main()
