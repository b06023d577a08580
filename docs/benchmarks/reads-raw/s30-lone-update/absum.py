#!/usr/bin/env python3
import re,sys,glob,os,statistics
out=sys.argv[1]
rows={}
for f in glob.glob(out+"/*-r*.txt"):
    m=re.match(r"(\w+)-(\w+)-t(\d+)-r(\d+)\.txt",os.path.basename(f))
    if not m: continue
    s,ph,t,r=m.groups()
    txt=open(f).read()
    tp=re.search(r"\[OVERALL\], Throughput\(ops/sec\), ([\d.]+)",txt)
    ops=sum(int(x) for x in re.findall(r"\[(?:READ|UPDATE|INSERT|SCAN|READ-MODIFY-WRITE)\], Operations, (\d+)",txt))
    cpu=re.search(r"CPU user ([\d.]+) sys ([\d.]+)",txt)
    c=(float(cpu.group(1))+float(cpu.group(2))) if cpu else float('nan')
    rows[(ph,t,r,s)]=(float(tp.group(1)) if tp else float('nan'), c*1e6/ops if ops else float('nan'))
keys=sorted({(ph,t,r) for ph,t,r,s in rows})
agg={}
for ph,t,r in keys:
    g=lambda s: rows.get((ph,t,r,s),(float('nan'),float('nan')))
    b,n,k=g('base'),g('new'),g('rocksdb')
    print(f"{ph} t{t} r{r}: base {b[0]:9.0f} ({b[1]:5.1f} us) new {n[0]:9.0f} ({n[1]:5.1f} us) rocksdb {k[0]:9.0f} ({k[1]:5.1f} us)  base/R {b[0]/k[0]:.2f} new/R {n[0]/k[0]:.2f} new/base {n[0]/b[0]:.2f}")
    for name,v in (('base/R',b[0]/k[0]),('new/R',n[0]/k[0]),('new/base',n[0]/b[0])):
        agg.setdefault((ph,t,name),[]).append(v)
for (ph,t,name),v in sorted(agg.items()):
    print(f"median {ph} t{t} {name}: {statistics.median(v):.2f}  ({' '.join(f'{x:.2f}' for x in v)})")
