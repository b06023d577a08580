import re,sys,glob
for d in sys.argv[1:]:
    print("==",d)
    for f in sorted(glob.glob(d+"/round-*.log")):
        txt=open(f).read()
        res={}
        for m in re.finditer(r'^(p2kv|rocksdb) RESULT (.*)$',txt,re.M):
            kv=dict(x.split('=') for x in m.group(2).split())
            res.setdefault(m.group(1),{}).update(kv)
        rnd=int(re.search(r'round-(\d+)',f).group(1))
        first="Kafka's" if rnd%2==1 else "p2kv"
        p,k=res['p2kv'],res['rocksdb']
        pr=float(p['processRecordsPerSec']);kr=float(k['processRecordsPerSec'])
        prs=float(p['restoreRecordsPerSec']);krs=float(k['restoreRecordsPerSec'])
        cpu_p=float(p['processCpuUs.total']);cpu_k=float(k['processCpuUs.total'])
        print(f"| {rnd} ({first}) | {pr/1000:.0f} / {kr/1000:.0f} | {pr/kr:.2f}x | {cpu_p:.2f} / {cpu_k:.2f} | {prs/1000:,.0f} / {krs/1000:,.0f} | {prs/krs:.2f}x | {int(p['processRssKb'])/int(k['processRssKb']):.2f}x | {int(p['restoreRssKb'])/int(k['restoreRssKb']):.2f}x |")
