# Ratios of the vt-rounds.sh runs: python3 ratios.py (in this directory)
import json, glob, statistics
rows = {}
for f in sorted(glob.glob('vthreads-*-r*.json')):
    v = f.split('-')[1]; r = int(f.split('-r')[1].split('.')[0])
    d = {}
    for b in json.load(open(f)):
        key = 'limit' if 'Batch' in b['benchmark'] else b['params']['target']
        d[key] = b['primaryMetric']['score']
    rows[(r, v)] = d
med = {}
for (r, v), d in sorted(rows.items()):
    a = d['p2kv'] / d['rocksdb']; l = d['p2kv'] / d['limit']
    med.setdefault(v, []).append((a, l))
    print(f"round {r} {v:5s} p2kv {d['p2kv']/1e3:6.1f}K rocksdb {d['rocksdb']/1e3:6.1f}K limit {d['limit']/1e3:6.1f}K  p2kv/rocksdb {a:.2f}x  p2kv/limit {l:.2f}x")
for v, x in med.items():
    print(v, 'median vs rocksdb %.2fx' % statistics.median([a for a, l in x]), 'vs limit %.2fx' % statistics.median([l for a, l in x]))
for v in sorted(set(k[1] for k in rows)):
    for key in ('p2kv', 'rocksdb', 'limit'):
        print(v, key, 'median %.1fK' % (statistics.median([d[key] for (r, w), d in rows.items() if w == v]) / 1e3))
