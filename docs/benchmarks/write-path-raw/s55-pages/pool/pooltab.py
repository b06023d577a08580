import json, glob, re, sys, statistics
d = sys.argv[1] if len(sys.argv) > 1 else '/tmp/s55/pool'
rows = {}
for f in sorted(glob.glob(d + '/*-r*-*.json')):
    m = re.search(r'/(\w+)-r(\d+)-(\w+)\.json$', f)
    kind, r, mode = m.group(1), int(m.group(2)), m.group(3)
    for b in json.load(open(f)):
        name = b['benchmark'].split('.')[-2] + '.' + b['benchmark'].split('.')[-1]
        p = b.get('params', {})
        if name.startswith('VirtualThread'): name += ':' + p['target']
        if name.startswith('RocksDbPut'): name += ':' + p['baseline'] + (':t16' if kind == 'async' else ':t1')
        rows.setdefault((r, mode), {})[name] = b['primaryMetric']['score']
def ratio(v, a, b): return v[a] / v[b]
defs = [
  ('VT p2kv (K/s)', lambda v: v['VirtualThreadPutBenchmark.syncPuts:p2kv'] / 1e3),
  ('VT RocksDB (K/s)', lambda v: v['VirtualThreadPutBenchmark.syncPuts:rocksdb'] / 1e3),
  ('limit (K/s)', lambda v: v['BatchLimitBenchmark.writeBatchOf32'] / 1e3),
  ('VT p2kv / RocksDB', lambda v: ratio(v, 'VirtualThreadPutBenchmark.syncPuts:p2kv', 'VirtualThreadPutBenchmark.syncPuts:rocksdb')),
  ('VT p2kv / limit', lambda v: ratio(v, 'VirtualThreadPutBenchmark.syncPuts:p2kv', 'BatchLimitBenchmark.writeBatchOf32')),
  ('async callbacks (K/s)', lambda v: v['PutBenchmark.asyncPutCallback'] / 1e3),
  ('async / limit', lambda v: ratio(v, 'PutBenchmark.asyncPutCallback', 'BatchLimitBenchmark.writeBatchOf32')),
  ('async / unordered_write', lambda v: ratio(v, 'PutBenchmark.asyncPutCallback', 'RocksDbPutBenchmark.put:rocksdb-unordered:t16')),
  ('1 sync caller / RocksDB', lambda v: ratio(v, 'PutBenchmark.syncPut', 'RocksDbPutBenchmark.put:rocksdb:t1')),
]
rounds = sorted({r for r, _ in rows})
print('| measure | ' + ' | '.join(f'round {r} off / pool' for r in rounds) + ' | median off | median pool |')
print('| --- |' + ' ---: |' * (len(rounds) + 2))
for label, fn in defs:
    cells, offs, pools = [], [], []
    for r in rounds:
        try:
            a, b = fn(rows[(r, 'off')]), fn(rows[(r, 'pool')])
        except KeyError:
            cells.append('-'); continue
        offs.append(a); pools.append(b)
        fmt = '%.2fx' if 'x' in label or '/' in label and 'K/s' not in label else '%.0f'
        fmt = '%.0f' if 'K/s' in label else '%.2fx'
        cells.append((fmt % a) + ' / ' + (fmt % b))
    fmt = '%.0f' if 'K/s' in label else '%.2fx'
    print(f'| {label} | ' + ' | '.join(cells) + f' | {fmt % statistics.median(offs)} | {fmt % statistics.median(pools)} |')
