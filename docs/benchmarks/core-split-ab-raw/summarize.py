import json, glob, statistics, re, collections
rows = collections.defaultdict(lambda: collections.defaultdict(dict))  # bench -> version -> round -> score
for f in glob.glob('docs/benchmarks/core-split-ab-raw/*-*-*.json'):
    m = re.match(r'.*/(put|rput|get)-(before|after)-(\d)\.json', f)
    if not m: continue
    kind, ver, rnd = m.groups()
    try: data = json.load(open(f))
    except Exception: continue
    for b in data:
        name = b['benchmark'].split('.')[-1]
        p = b.get('params', {})
        if 'distribution' in p: name += '[' + p['distribution'] + ']'
        rows[name][ver][int(rnd)] = b['primaryMetric']['score']
def med(d): return statistics.median(d.values()) if d else float('nan')
print('| benchmark | before (median ops/s) | after (median ops/s) | after/before | per round after/before |')
print('|---|---:|---:|---:|---|')
for name in sorted(rows):
    b, a = rows[name]['before'], rows[name]['after']
    per = ', '.join('%.2f' % (a[r]/b[r]) for r in sorted(set(a) & set(b)))
    print('| %s | %.0f | %.0f | %.2f | %s |' % (name, med(b), med(a), med(a)/med(b), per))
# ratios against plain RocksDB, same jar, same round
print()
print('| ratio to plain RocksDB | before (median) | after (median) |')
print('|---|---:|---:|')
for p2, rk in [('syncPut','put'),('asyncPutCallback','put'),('p2kvGet[uniform]','rocksGet[uniform]'),('p2kvGet[zipfian]','rocksGet[zipfian]')]:
    out=[]
    for ver in ['before','after']:
        rs=[rows[p2][ver][r]/rows[rk][ver][r] for r in rows[p2][ver] if r in rows[rk][ver]]
        out.append(statistics.median(rs) if rs else float('nan'))
    print('| %s / %s | %.2f | %.2f |' % (p2, rk, out[0], out[1]))
