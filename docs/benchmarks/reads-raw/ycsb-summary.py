#!/usr/bin/env python3
"""Issue 13's YCSB targets from run-ycsb.sh raw directories: median throughput of p2kv and of the
plain RocksDB baseline per phase and thread count, their ratio, the per-round ratios, and the
target. Usage: ycsb-summary.py RAW_DIR [RAW_DIR ...] (one table per directory)."""
import glob, os, re, statistics, sys

TARGETS = {"load": 1.5, "b": 1.0, "c": 1.0, "d": 1.0, "e": 0.9}

def tput(path):
    for line in open(path):
        if line.startswith("[OVERALL], Throughput"):
            return float(line.split(",")[2])
    return None

for raw in sys.argv[1:]:
    runs = {}
    for f in glob.glob(os.path.join(raw, "*-t*-*-r*.txt")):
        m = re.match(r"(p2kv|rocksdb)-t(\d+)-(\w+)-r(\d+)\.txt", os.path.basename(f))
        if m:
            t = tput(f)
            if t:
                runs.setdefault((m[3], int(m[2])), {}).setdefault(m[1], {})[int(m[4])] = t
    print(f"\n{raw}\n")
    print("| phase | threads | p2kv ops/s | RocksDB ops/s | ratio of medians | per-round ratios | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- | --- |")
    order = ["load", "a", "b", "c", "d", "e", "f"]
    for (ph, t) in sorted(runs, key=lambda k: (order.index(k[0]), k[1])):
        r = runs[(ph, t)]
        p, b = r.get("p2kv", {}), r.get("rocksdb", {})
        if not p or not b:
            continue
        pm, bm = statistics.median(p.values()), statistics.median(b.values())
        rounds = " ".join(f"{p[i] / b[i]:.2f}" for i in sorted(p) if i in b)
        tgt = TARGETS.get(ph)
        verdict = "" if tgt is None else (f">= {tgt}: met" if pm / bm >= tgt else f">= {tgt}: **missed**")
        print(f"| {ph.upper()} | {t} | {pm:,.0f} | {bm:,.0f} | {pm / bm:.2f}x | {rounds} | {verdict} |")
