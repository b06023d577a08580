"""Medians per variant (old: stop 61's write buffer, new: the tried one) of summary.txt's and
ops-summary.txt's lines, as run.sh and ops.sh wrote them; then, for the application runs
(summary.txt), each round's pair, new against old."""
import re, statistics, sys, collections
KEYS = ['processRecordsPerSec', 'recordsPerSec', 'usPerRecord', 'processCpuUs.stream', 'processCpuUs.total',
        'processCpuUs.gc', 'processHeapCommittedKb', 'processRssKb', 'CpuUs.total', 'CpuUs.p2kvWorker']
pair_lines = []
for path in sys.argv[1:]:
    name = path.split('/')[-1]
    rows = collections.defaultdict(lambda: collections.defaultdict(list))
    pairs = collections.defaultdict(dict)
    for line in open(path):
        f = line.split()
        mode, rnd, variant = f[1], f[2], f[3]
        kv = re.findall(r'([\w.]+)=([\d.]+)', line)
        for k, v in kv:
            rows[(mode, variant)][k].append(float(v))
        m = re.search(r'([\d.]+) us CPU/record; second half', line)
        if m:
            rows[(mode, variant)]['usPerRecord'].append(float(m.group(1)))
        m = re.search(r'(\d+) records/s, ', line)
        if m:
            rows[(mode, variant)]['recordsPerSec'].append(float(m.group(1)))
        if 'processRecordsPerSec' in dict(kv):
            pairs[rnd][variant] = dict(kv)
    for (mode, variant), vals in sorted(rows.items()):
        cells = [f'{k}={statistics.median(vals[k]):.6g} ({min(vals[k]):.6g}-{max(vals[k]):.6g}, n={len(vals[k])})'
                 for k in KEYS if vals.get(k)]
        print(name, mode, variant, '; '.join(cells))
    for rnd, d in pairs.items():
        o, n = d['old'], d['new']
        pair_lines.append(' '.join([name, rnd,
            'records/s new/old %.3f' % (float(n['processRecordsPerSec']) / float(o['processRecordsPerSec'])),
            'stream us %s/%s' % (n['processCpuUs.stream'], o['processCpuUs.stream']),
            'heap MiB %d/%d' % (int(n['processHeapCommittedKb']) // 1024, int(o['processHeapCommittedKb']) // 1024),
            'RSS MiB %d/%d' % (int(n['processRssKb']) // 1024, int(o['processRssKb']) // 1024)]))
print('\n'.join(pair_lines))
