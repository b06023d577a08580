"""Medians per variant (old: stop 61's write buffer, new: the tried one) of summary.txt's and
ops-summary.txt's lines, as run.sh and ops.sh wrote them."""
import re, statistics, sys, collections
for path in sys.argv[1:]:
    rows = collections.defaultdict(lambda: collections.defaultdict(list))
    for line in open(path):
        f = line.split()
        mode, variant = f[1], f[3]
        for k, v in re.findall(r'([\w.]+)=([\d.]+)', line):
            rows[(mode, variant)][k].append(float(v))
        m = re.search(r'([\d.]+) us CPU/record; second half', line)
        if m:
            rows[(mode, variant)]['usPerRecord'].append(float(m.group(1)))
        m = re.search(r'(\d+) records/s, ', line)
        if m:
            rows[(mode, variant)]['recordsPerSec'].append(float(m.group(1)))
    keys = ['processRecordsPerSec', 'recordsPerSec', 'usPerRecord', 'processCpuUs.stream', 'processCpuUs.total',
            'processCpuUs.gc', 'processHeapCommittedKb', 'processRssKb', 'CpuUs.total', 'CpuUs.p2kvWorker']
    for (mode, variant), vals in sorted(rows.items()):
        cells = [f'{k}={statistics.median(vals[k]):.6g} ({min(vals[k]):.6g}-{max(vals[k]):.6g}, n={len(vals[k])})'
                 for k in keys if vals.get(k)]
        print(path.split('/')[-1], mode, variant, '; '.join(cells))

# Each round's pair, new against old (summary.txt: the application runs).
for path in sys.argv[1:]:
    pairs = collections.defaultdict(dict)
    for line in open(path):
        f = line.split()
        kv = dict(re.findall(r'([\w.]+)=([\d.]+)', line))
        if 'processRecordsPerSec' in kv:
            pairs[f[2]][f[3]] = kv
    for rnd, d in pairs.items():
        o, n = d['old'], d['new']
        print(path.split('/')[-1], rnd, 'records/s new/old %.3f' % (float(n['processRecordsPerSec']) / float(o['processRecordsPerSec'])),
              'stream us %s/%s' % (n['processCpuUs.stream'], o['processCpuUs.stream']),
              'heap MiB %d/%d' % (int(n['processHeapCommittedKb']) // 1024, int(o['processHeapCommittedKb']) // 1024),
              'RSS MiB %d/%d' % (int(n['processRssKb']) // 1024, int(o['processRssKb']) // 1024))
