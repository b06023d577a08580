import re,glob,sys,statistics,collections
out=sys.argv[1]
rows=collections.defaultdict(dict)
for f in sorted(glob.glob(out+'/*-r*.txt')):
    m=re.match(r'.*/(p2kv|rocksdb)-(\w+)-r(\d+)\.txt$',f)
    if not m: continue
    s=open(f).read()
    thr=float(re.search(r'\[OVERALL\], Throughput\(ops/sec\), ([\d.]+)',s)[1])
    ops=int(re.search(r'\[OVERALL\], RunTime\(ms\), ([\d.]+)',s)[1])
    c=re.search(r'CPU user ([\d.]+) sys ([\d.]+) wall ([\d.]+)',s)
    lat={k:float(v) for k,v in re.findall(r'\[(READ|UPDATE)\], AverageLatency\(us\), ([\d.]+)',s)}
    cnt=sum(int(v) for v in re.findall(r'\[(?:READ|UPDATE|INSERT|SCAN)\], Operations, (\d+)',s))
    rows[(m[2],int(m[3]))][m[1]]=(thr,float(c[1]),float(c[2]),cnt,lat)
for k in sorted(rows):
    d=rows[k]
    if len(d)<2: continue
    p,r=d['p2kv'],d['rocksdb']
    print(k, 'thr ratio %.2f'%(p[0]/r[0]), 'CPU us/op p2kv %.1f (u %.1f s %.1f) rocksdb %.1f (u %.1f s %.1f)'%((p[1]+p[2])/p[3]*1e6,p[1]/p[3]*1e6,p[2]/p[3]*1e6,(r[1]+r[2])/r[3]*1e6,r[1]/r[3]*1e6,r[2]/r[3]*1e6), 'lat p2kv',p[4],'rocksdb',r[4])
