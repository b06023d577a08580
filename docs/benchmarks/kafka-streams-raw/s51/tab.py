import re,glob,sys,statistics
base=sys.argv[1] if len(sys.argv)>1 else '/tmp/s51/ab'
rows=[]
for d in sorted(glob.glob(base+'/*-*')):
    txt=open(d+'/round.log').read()
    res={}
    for m in re.finditer(r'^(p2kv|rocksdb) RESULT (.*)$',txt,re.M):
        res.setdefault(m.group(1),{}).update(dict(kv.split('=',1) for kv in m.group(2).split()))
    if len(res)<2: continue
    p,k=res['p2kv'],res['rocksdb']
    f=lambda d,x: float(d[x])
    rows.append((d.split('/')[-1], f(p,'processRecordsPerSec')/f(k,'processRecordsPerSec'),
      f(p,'restoreRecordsPerSec')/1e3, f(k,'restoreRecordsPerSec')/1e3, f(p,'restoreRecordsPerSec')/f(k,'restoreRecordsPerSec'),
      f(p,'restoreHeapCommittedKb')/1024, f(k,'restoreHeapCommittedKb')/1024,
      f(p,'restoreRssKb')/1024, f(k,'restoreRssKb')/1024, f(p,'restoreRssKb')/f(k,'restoreRssKb'),
      f(p,'restoreHwmKb')/1024, f(k,'restoreHwmKb')/1024,
      f(p,'processRssKb')/f(k,'processRssKb')))
print('| variant-round | process ratio | restore p2kv / Kafka (K/s) | ratio | heap after restore p2kv / Kafka (MiB) | RSS after restore p2kv / Kafka (MiB) | ratio | peak RSS in restore p2kv / Kafka (MiB) | RSS after process ratio |')
print('| --- | ---: | --- | ---: | --- | --- | ---: | --- | ---: |')
for r in rows:
    print(f'| {r[0]} | {r[1]:.2f}x | {r[2]:,.0f} / {r[3]:,.0f} | {r[4]:.2f}x | {r[5]:.0f} / {r[6]:.0f} | {r[7]:.0f} / {r[8]:.0f} | {r[9]:.2f}x | {r[10]:.0f} / {r[11]:.0f} | {r[12]:.2f}x |')
for v in sorted(set(r[0].split('-')[0] for r in rows)):
    rr=[r for r in rows if r[0].split('-')[0]==v]
    print(v, 'median process %.2f restore %.2f rssRestore %.2f heap %.0f' % (statistics.median(r[1] for r in rr), statistics.median(r[4] for r in rr), statistics.median(r[9] for r in rr), statistics.median(r[5] for r in rr)))
