import json, sys, glob, re, statistics, collections
# ratios.py NAME BASELINE-BENCH-PREFIX : per round and build, each p2kv row vs the baseline row of the same run (same params minus p2kv-only ones)
name, base = sys.argv[1], sys.argv[2]
runs = collections.defaultdict(dict)
for f in sorted(glob.glob('raw/%s-*-r*.json' % name)):
    m = re.match(r'raw/%s-(.*)-r(\d+)\.json' % re.escape(name), f); tag, r = m.group(1), int(m.group(2))
    try: data = json.load(open(f))
    except Exception: continue
    for b in data:
        p = dict(b.get('params', {}))
        its = [x for fork in b['primaryMetric']['rawData'] for x in fork]
        cpu = [x for fork in b['secondaryMetrics']['cpu.ns/op']['rawData'] for x in fork][:-1]
        runs[(tag, r)][(b['benchmark'].split('.')[-1], tuple(sorted(p.items())))] = (statistics.mean(its), statistics.mean(cpu), p)
res = collections.defaultdict(lambda: collections.defaultdict(list))
for (tag, r), d in runs.items():
    bases = {k: v for k, v in d.items() if k[0].startswith(base)}
    for k, (s, c, p) in d.items():
        if k[0].startswith(base): continue
        bk = next(bk for bk, bv in bases.items() if all(p.get(x) == y for x, y in bk[1]))
        bs, bc, _ = bases[bk]
        label = k[0] + ' ' + ','.join('%s=%s' % kv for kv in k[1] if kv[0] not in ('keys',))
        res[label][tag].append((r, s, c, s / bs, bc / c, bs, bc))
for label, tags in sorted(res.items()):
    for tag, rows in sorted(tags.items()):
        rows.sort()
        print("%-58s %-7s ops/s med %7.0f  cpu/op med %6.0f ns | baseline ops/s med %7.0f cpu/op med %6.0f | ratio thr per round %s med %.2f | cpu ratio (base/p2kv) %s med %.2f" % (
            label, tag, statistics.median(x[1] for x in rows), statistics.median(x[2] for x in rows),
            statistics.median(x[5] for x in rows), statistics.median(x[6] for x in rows),
            ' '.join('%.2f' % x[3] for x in rows), statistics.median(x[3] for x in rows),
            ' '.join('%.2f' % x[4] for x in rows), statistics.median(x[4] for x in rows)))
