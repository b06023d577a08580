#!/usr/bin/env python3
"""Issue 13's JMH ratios: for each round's JSON (jmh-*-rN.json), p2kv / RocksDB throughput per
parameter set (p2kv*'s params other than those of the p2kv store matched to the RocksDB run with
the same data params), then the median over rounds. Usage: jmh-summary.py FILE..."""
import json, statistics, sys, collections

STORE_PARAMS = {"shards", "readPath", "separation", "partitioning"}
ratios = collections.defaultdict(list)
for path in sys.argv[1:]:
    runs = json.load(open(path))
    rocks = {}
    for r in runs:
        name = r["benchmark"].split(".")[-1]
        data = tuple(sorted((k, v) for k, v in r.get("params", {}).items() if k not in STORE_PARAMS))
        if name.startswith("rocks"):
            rocks[data] = r["primaryMetric"]["score"]
    for r in runs:
        name = r["benchmark"].split(".")[-1]
        if not name.startswith("p2kv"):
            continue
        params = r.get("params", {})
        data = tuple(sorted((k, v) for k, v in params.items() if k not in STORE_PARAMS))
        if data in rocks:
            key = (name, tuple(sorted(params.items())))
            ratios[key].append((r["primaryMetric"]["score"], rocks[data]))
print("| benchmark | params | p2kv ops/s (median) | RocksDB ops/s (median) | ratio per round | median ratio |")
print("| --- | --- | ---: | ---: | --- | ---: |")
for (name, params), vals in sorted(ratios.items()):
    rs = [p / b for p, b in vals]
    print(f"| {name} | {', '.join(f'{k}={v}' for k, v in params)} | {statistics.median(p for p, _ in vals):,.0f} | "
          f"{statistics.median(b for _, b in vals):,.0f} | {' '.join(f'{x:.2f}' for x in rs)} | {statistics.median(rs):.2f} |")
