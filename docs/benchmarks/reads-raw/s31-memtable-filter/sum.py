#!/usr/bin/env python3
# sum.py: per benchmark configuration, throughput and CPU per op with the memtable filter off / on,
# per round and the median of the on/off ratios. Run in the raw directory.
import glob, json, re, statistics, collections
data = collections.defaultdict(dict)  # (bench, params) -> {(variant, round): (score, cpu)}
for f in glob.glob('*.json'):
    m = re.match(r'(upd|mix)-mt([\d.]+)-r(\d+)\.json', f)
    if not m:
        continue
    v, r = m.group(2), int(m.group(3))
    try:
        rows = json.load(open(f))
    except ValueError:
        continue  # still running
    for row in rows:
        p = row['params']
        key = (row['benchmark'].split('.')[-2] + '.' + row['benchmark'].split('.')[-1],
               p.get('distribution', '') + p.get('readPercent', ''))
        cpu = row['secondaryMetrics'].get('cpu.ns/op', {}).get('score')
        data[key][(v, r)] = (row['primaryMetric']['score'], cpu)
print('| benchmark | params | off: ops/s (rounds) | on: ops/s (rounds) | on/off throughput per round | median | CPU ns/op off -> on (medians) |')
print('| --- | --- | --- | --- | --- | ---: | --- |')
for key in sorted(data):
    d = data[key]
    rounds = sorted({r for (_, r) in d})
    off = [d.get(('0', r)) for r in rounds]
    on = [d.get(('0.02', r)) for r in rounds]
    ratios = [b[0] / a[0] for a, b in zip(off, on) if a and b]
    fmt = lambda xs: ', '.join('%.0f K' % (x[0] / 1e3) for x in xs if x)
    cpu = lambda xs: statistics.median([x[1] for x in xs if x and x[1]]) if any(x and x[1] for x in xs) else float('nan')
    print('| %s | %s | %s | %s | %s | %.2f | %.0f -> %.0f |' % (key[0], key[1], fmt(off), fmt(on),
          ', '.join('%.2f' % x for x in ratios), statistics.median(ratios) if ratios else float('nan'), cpu(off), cpu(on)))
