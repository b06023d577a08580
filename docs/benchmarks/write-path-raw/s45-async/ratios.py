#!/usr/bin/env python3
"""Issue 19's async-callback ratios per round and their median, from run-async-callbacks.sh's JSON.

Run from this directory: python3 ratios.py
"""
import glob
import json
import re
import statistics


def score(path, bench, **params):
    for r in json.load(open(path)):
        if r["benchmark"].endswith(bench) and all(r.get("params", {}).get(k) == v for k, v in params.items()):
            return r["primaryMetric"]["score"]
    return None


ROWS = [
    ("async callbacks / WriteBatch-of-32 limit", ("put", "PutBenchmark.asyncPutCallback", {}), ("limit", "BatchLimitBenchmark.writeBatchOf32", {}), "0.9x"),
    ("async callbacks / RocksDB `unordered_write`", ("put", "PutBenchmark.asyncPutCallback", {}), ("put", "RocksDbPutBenchmark.put", {}), "1.2x"),
    ("parking callers / limit (diagnostic)", ("put", "PutBenchmark.asyncPutCallbackParking", {}), ("limit", "BatchLimitBenchmark.writeBatchOf32", {}), ""),
    ("parking callers / `unordered_write` (diagnostic)", ("put", "PutBenchmark.asyncPutCallbackParking", {}), ("put", "RocksDbPutBenchmark.put", {}), ""),
]

rounds = sorted({int(m.group(1)) for f in glob.glob("head-put-r*.json") if (m := re.search(r"-r(\d+)\.json$", f))})
print("| ratio | target | " + " | ".join(f"round {n}" for n in rounds) + " | median |")
print("| --- | ---: | " + " | ".join("---:" for _ in rounds) + " | ---: |")
for name, (fa, ba, pa), (fb, bb, pb), target in ROWS:
    cells, ratios = [], []
    for n in rounds:
        a = score(f"head-{fa}-r{n}.json", ba, **pa)
        b = score(f"head-{fb}-r{n}.json", bb, **pb)
        ratios.append(a / b)
        cells.append(f"{a / 1e3:.1f} K / {b / 1e3:.1f} K = {a / b:.2f}x")
    print(f"| {name} | {target} | " + " | ".join(cells) + f" | {statistics.median(ratios):.2f}x |")
