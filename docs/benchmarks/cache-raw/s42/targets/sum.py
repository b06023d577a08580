import json,glob,collections
rows=collections.defaultdict(dict)
for f in sorted(glob.glob('*.json')):
    kind,jar,r=f[:-5].split('-')
    try: d=json.load(open(f))
    except Exception: continue
    for b in d:
        p=b['params']; bench=b['benchmark'].split('.')[-1]
        key=(kind, p.get('distribution', p.get('readPercent')), jar if 'rocks' not in bench else 'rocks', p.get('cache','-'))
        s=b['secondaryMetrics']
        rows[key][r]=(b['primaryMetric']['score'], s.get('cpu.gc.ns/op',{}).get('score',float('nan')))
for k in sorted(rows):
    v=rows[k]
    print('%-4s %-8s %-5s %-4s ' % k + '  '.join('%s %7.0fK gc %4.2f' % (r, v[r][0]/1e3, v[r][1]/1e3) for r in sorted(v)))
