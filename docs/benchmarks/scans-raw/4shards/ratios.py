#!/usr/bin/env python3
"""ratios.py FILE.json...: per JMH run, p2kv SCAN-100 (1 and 4 shards) against rocksScan of the same run."""
import json, sys
for f in sys.argv[1:]:
    rows = json.load(open(f))
    rocks = next(r for r in rows if r['benchmark'].endswith('rocksScan'))
    rt, rc = rocks['primaryMetric']['score'], rocks['secondaryMetrics']['cpu.ns/op']['score']
    parts = []
    for r in rows:
        if r['benchmark'].endswith('p2kvScan'):
            t, c = r['primaryMetric']['score'], r['secondaryMetrics']['cpu.ns/op']['score']
            parts.append(f"{r['params']['shards']} shard(s): {t/1e3:.1f} K/s {c/1e3:.1f} us -> thr {t/rt:.2f} cpu {rc/c:.2f}")
    print(f"{f}: rocks {rt/1e3:.1f} K/s {rc/1e3:.1f} us | " + " | ".join(parts))
