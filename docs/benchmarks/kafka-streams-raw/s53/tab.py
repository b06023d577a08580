import re,sys,glob
# per-round table from StreamsBenchmark logs: args: glob
for f in sorted(glob.glob(sys.argv[1]), key=lambda x:int(re.search(r'-(\d+)\.log$',x).group(1))):
    r=int(re.search(r'-(\d+)\.log$',f).group(1)); d={}
    for line in open(f):
        m=re.match(r'(p2kv|rocksdb) RESULT (.*)',line)
        if m:
            kv=dict(x.split('=',1) for x in m.group(2).split())
            d.setdefault(m.group(1),{}).update(kv)
    if 'p2kv' not in d or 'rocksdb' not in d or 'restoreRecordsPerSec' not in d['p2kv'] or 'restoreRecordsPerSec' not in d['rocksdb']: continue
    p,k=d['p2kv'],d['rocksdb']
    first='Kafka' if r%2 else 'p2kv'
    fl=lambda x,key: float(x[key])
    print('| %d (%s) | %.1f / %.1f | %.2fx | %.2f / %.2f | %s / %s | %.0f / %.0f | %.2fx | %.0f / %.0f | %.2fx | %.0f / %.0f |'%(r,first,
      fl(p,'processRecordsPerSec')/1e3,fl(k,'processRecordsPerSec')/1e3,fl(p,'processRecordsPerSec')/fl(k,'processRecordsPerSec'),
      fl(p,'processCpuUs.total'),fl(k,'processCpuUs.total'),p['restoreRecords'],k['restoreRecords'],
      fl(p,'restoreRecordsPerSec')/1e3,fl(k,'restoreRecordsPerSec')/1e3,fl(p,'restoreRecordsPerSec')/fl(k,'restoreRecordsPerSec'),
      fl(p,'processRssKb')/1024,fl(k,'processRssKb')/1024,fl(p,'processRssKb')/fl(k,'processRssKb'),
      fl(p,'processHeapCommittedKb')/1024,fl(k,'processHeapCommittedKb')/1024))
