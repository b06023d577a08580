#!/usr/bin/env python3
"""table.py: the markdown table of section 5 from the before-rN / after-rN JSON files here."""
import glob, json, os, re, statistics
here = os.path.dirname(os.path.abspath(__file__))

def row(f):
    rows = json.load(open(f))
    rocks = next(r for r in rows if r['benchmark'].endswith('rocksScan'))
    rt, rc = rocks['primaryMetric']['score'], rocks['secondaryMetrics']['cpu.ns/op']['score']
    out = {'rocks_us': rc / 1e3}
    for r in rows:
        if r['benchmark'].endswith('p2kvScan'):
            n = r['params']['shards']
            t, c = r['primaryMetric']['score'], r['secondaryMetrics']['cpu.ns/op']['score']
            out[n] = (t / rt, rc / c, c / 1e3)
    return out

def key(f):
    return int(re.search(r'-r(\d+)\.json$', f).group(1))

print('| build | rounds (in run order) | RocksDB CPU/scan (us) | 1 shard: throughput ratio | 4 shards: throughput ratio | 4 shards: CPU ratio | p2kv 4-shard CPU/scan (us) |')
print('| --- | --- | --- | --- | --- | --- | --- |')
for build in ('before', 'after'):
    files = sorted(glob.glob(os.path.join(here, build + '-r*.json')), key=key)
    rs = [row(f) for f in files]
    def col(fn, fmt):
        vals = [fn(r) for r in rs]
        return ' '.join(fmt % v for v in vals) + (' (median **' + fmt % statistics.median(vals) + '**)')
    print(f"| {build} | {', '.join('r%d' % key(f) for f in files)} | {col(lambda r: r['rocks_us'], '%.1f')} | "
          f"{col(lambda r: r['1'][0], '%.2f')} | {col(lambda r: r['4'][0], '%.2f')} | {col(lambda r: r['4'][1], '%.2f')} | "
          f"{col(lambda r: r['4'][2], '%.1f')} |")
