import re,glob,sys
for f in sorted(glob.glob('*/round-*.log')):
    d={}
    for line in open(f):
        m=re.match(r'(rocksdb|p2kv) RESULT (process|restore)Records',line)
        if m: d.setdefault(m.group(1),{}).update(dict(x.split('=') for x in line.split()[2:]))
    if 'p2kv' not in d or 'processRecordsPerSec' not in d['p2kv'] or 'restoreRecordsPerSec' not in d['p2kv']: continue
    p,k=d['p2kv'],d['rocksdb']
    print(f.split('/')[-2], f.split('-')[-1][:1], 'p2kv %.0fK kafka %.0fK'%(float(p['processRecordsPerSec'])/1e3,float(k['processRecordsPerSec'])/1e3),
      'p2kv cpu: total %s stream %s worker %s bg %s | kafka total %s stream %s bg %s'%(p['processCpuUs.total'],p['processCpuUs.stream'],p.get('processCpuUs.p2kvWorker'),p['processCpuUs.rocksdbBackground'],k['processCpuUs.total'],k['processCpuUs.stream'],k['processCpuUs.rocksdbBackground']),
      'restore p2kv %.0fK kafka %.0fK'%(float(p['restoreRecordsPerSec'])/1e3,float(k['restoreRecordsPerSec'])/1e3))
