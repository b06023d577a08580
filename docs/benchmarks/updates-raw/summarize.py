#!/usr/bin/env python3
"""Renders the UpdateBenchmark tables of docs/benchmarks/UPDATES.md from jmh-round*.json (this
directory), or from the JSON files given as arguments (one per round, in order): per configuration
the score of each round, the median, CPU per operation (median), and same-round ratios (p2kvUpdate
over each baseline of the same round), with their median."""
import glob, json, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
rounds = []
for f in sys.argv[1:] or sorted(glob.glob(os.path.join(here, 'jmh-round*.json'))):
    rounds.append(json.load(open(f)))

def key(e):
    p = e.get('params', {})
    return (p.get('distribution'), p.get('shards', '-'))

score = {}  # (bench, dist, shards) -> [per round]
cpu = {}
for r, data in enumerate(rounds):
    for e in data:
        b = e['benchmark'].split('.')[-1]
        d, s = key(e)
        score.setdefault((b, d, s), {})[r] = e['primaryMetric']['score']
        c = e.get('secondaryMetrics', {}).get('cpu.ns/op')
        if c:
            cpu.setdefault((b, d, s), {})[r] = c['score']

def fmt(x):
    return f"{x/1000:,.0f} K" if x >= 1000 else f"{x:.0f}"

print(f"| benchmark | keys | shards | {' | '.join(f'round {i+1}' for i in range(len(rounds)))} | median | CPU/op (median) |")
print("| --- | --- | ---: |" + " ---: |" * len(rounds) + " ---: | ---: |")
for (b, d, s) in sorted(score):
    v = score[(b, d, s)]
    c = cpu.get((b, d, s), {})
    cells = ' | '.join(fmt(v[i]) if i in v else '-' for i in range(len(rounds)))
    cm = f"{statistics.median(c.values())/1000:.1f} us" if c else '-'
    print(f"| {b} | {d} | {s} | {cells} | {fmt(statistics.median(v.values()))} | {cm} |")
print()
print("| keys | shards | update / rocksdbLocked, per round | median | target | update / p2kvGetPutLocked, per round | median | target |")
print("| --- | ---: | --- | ---: | ---: | --- | ---: | ---: |")
for (b, d, s) in sorted(score):
    if b != 'p2kvUpdate':
        continue
    u = score[(b, d, s)]
    rk = score.get(('rocksdbLocked', d, '-'), {})
    gp = score.get(('p2kvGetPutLocked', d, s), {})
    r1 = [u[i] / rk[i] for i in u if i in rk]
    r2 = [u[i] / gp[i] for i in u if i in gp]
    def cells(rs):
        return ', '.join(f"{x:.2f}x" for x in rs)
    m1, m2 = statistics.median(r1), statistics.median(r2)
    print(f"| {d} | {s} | {cells(r1)} | {m1:.2f}x | 2x {'met' if m1 >= 2 else '**missed**'} | {cells(r2)} | {m2:.2f}x | 1.5x {'met' if m2 >= 1.5 else '**missed**'} |")
