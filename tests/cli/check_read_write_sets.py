#!/usr/bin/env python3
"""check_read_write_sets.py FUNCTION READS WRITES < ast.json

Checks `mclc print-ast-json` output: valid JSON whose function FUNCTION reads
exactly the comma-separated parameters READS and writes exactly WRITES.
"""
import json
import sys

function, reads, writes = sys.argv[1], sys.argv[2], sys.argv[3]
module = json.load(sys.stdin)
found = [f for f in module["functions"] if f["name"] == function]
if not found:
    sys.exit(f"no function {function}")
f = found[0]
want_reads = sorted(x for x in reads.split(",") if x)
want_writes = sorted(x for x in writes.split(",") if x)
if sorted(f["reads"]) != want_reads:
    sys.exit(f"reads {sorted(f['reads'])}, expected {want_reads}")
if sorted(f["writes"]) != want_writes:
    sys.exit(f"writes {sorted(f['writes'])}, expected {want_writes}")
print(f"{function}: reads {want_reads}, writes {want_writes}")
