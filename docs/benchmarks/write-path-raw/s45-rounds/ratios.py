#!/usr/bin/env python3
"""Issue 19's write-path ratios per round and their median, from run-write-path.sh's JSON.

Run from this directory: python3 ratios.py
"""
import glob
import json
import re
import statistics


def score(rows, bench, **params):
    for r in rows:
        if r["benchmark"].endswith(bench) and all(r.get("params", {}).get(k) == v for k, v in params.items()):
            return r["primaryMetric"]["score"]
    return None


ROWS = [
    ("durable sync puts, 16 callers / RocksDB sync=true", "durable-t16", ("PutBenchmark.syncPut", {}), ("RocksDbPutBenchmark.put", {}), 2.0),
    ("durable async puts, 16 x 64 in flight / RocksDB sync=true", "durable-t16", ("PutBenchmark.asyncPutCallback", {}), ("RocksDbPutBenchmark.put", {}), 5.0),
    ("durable sync puts, 1 caller / RocksDB sync=true", "durable-t1", ("PutBenchmark.syncPut", {}), ("RocksDbPutBenchmark.put", {}), 0.95),
    ("WAL sync puts, 1 caller / RocksDB", "wal-t1", ("PutBenchmark.syncPut", {}), ("RocksDbPutBenchmark.put", {}), 0.95),
    ("256 virtual threads / RocksDB, same threads", "vthreads", ("VirtualThreadPutBenchmark.syncPuts", {"target": "p2kv"}), ("VirtualThreadPutBenchmark.syncPuts", {"target": "rocksdb"}), 2.0),
    ("256 virtual threads / WriteBatch-of-32 limit", "vthreads", ("VirtualThreadPutBenchmark.syncPuts", {"target": "p2kv"}), ("BatchLimitBenchmark.writeBatchOf32", {}), 0.8),
]

rounds = sorted({int(m.group(1)) for f in glob.glob("*-r*.json") if (m := re.search(r"-r(\d+)\.json$", f))})
print("| ratio | target | " + " | ".join(f"round {n}" for n in rounds) + " | median |")
print("| --- | ---: | " + " | ".join("---:" for _ in rounds) + " | ---: |")
for label, name, (pb, pp), (bb, bp), target in ROWS:
    cells, ratios = [], []
    for n in rounds:
        try:
            rows = json.load(open(f"{name}-r{n}.json"))
        except FileNotFoundError:
            cells.append("-")
            continue
        p, b = score(rows, pb, **pp), score(rows, bb, **bp)
        ratios.append(p / b)
        cells.append(f"{p / 1000:.1f} K / {b / 1000:.1f} K = {p / b:.2f}x")
    med = f"{statistics.median(ratios):.2f}x" if ratios else "-"
    print(f"| {label} | {target}x | " + " | ".join(cells) + f" | {med} |")
