import json,glob,sys
for f in sorted(glob.glob(sys.argv[1] if len(sys.argv)>1 else '*.json')):
    try: d=json.load(open(f))
    except Exception: continue
    for b in d:
        s=b['secondaryMetrics']; g=lambda k: s[k]['score'] if k in s else float('nan')
        print('%-16s %8.0f ops/s cpu/op %5.2f caller %5.2f gc %5.2f jit %5.2f worker %5.2f cores %.2f' % (f[:-5], b['primaryMetric']['score'], g('cpu.ns/op')/1e3, g('cpu.caller.ns/op')/1e3, g('cpu.gc.ns/op')/1e3, g('cpu.jit.ns/op')/1e3, g('cpu.worker.ns/op')/1e3, g('cpu.cores')))
