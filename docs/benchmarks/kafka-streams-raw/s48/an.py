import sys,subprocess,collections,re
# usage: an.py perf.data  -> per processing JVM (first JVM with bench-p2kv / bench-rocksdb stream threads): us/record by thread group and leaf symbols
data=sys.argv[1]; ops=2e6
out=subprocess.run(['perf','script','-i',data,'-F','comm,pid,tid,time,ip,sym'],capture_output=True,text=True).stdout
first={}; samples=collections.defaultdict(list)
hdr=None
lines=out.splitlines()
recs=[]
for line in lines:
    if not line.strip():
        continue
    if not line[0].isspace() or re.match(r'^\s*\S.*\s\d+/\d+\s+[\d.]+:\s*$',line):
        m=re.match(r'\s*(.+?)\s+(\d+)/(\d+)\s+([\d.]+):',line)
        if m: hdr=list(m.groups()); recs.append(hdr+[None])
        continue
    if recs and recs[-1][4] is None:
        recs[-1][4]=' '.join(line.split()[1:])
for comm,pid,tid,t,s in recs:
    s=s or ''
    for kind in ('p2kv','rocksdb'):
        if comm.startswith('bench-'+kind):
            first.setdefault(kind,{}).setdefault(pid,float(t))
    samples[pid].append((comm,s.strip()))
f=lambda n: n/499/ops*1e6
for kind in ('rocksdb','p2kv'):
    pid=min(first[kind],key=first[kind].get)
    thr=collections.Counter(); leaf=collections.Counter()
    for comm,s in samples[pid]:
        g='stream' if comm.startswith('bench-') else ('worker' if 'p2kv-shard' in comm else ('rocksdb-bg' if comm.startswith('rocksdb') else ('jit' if 'Compiler' in comm else 'other')))
        thr[g]+=1
        if g in ('stream','worker'):
            leaf[s[:80]]+=1
    print('==',kind,'pid',pid,' '.join('%s=%.2f'%(k,f(v)) for k,v in thr.most_common()), 'total=%.2f'%f(sum(thr.values())))
    for s in ('rocksdb::MemTable::Add','rocksdb::MemTable::Get','rocksdb::InlineSkipList','__memcmp','rocksdb::MemTable::KeyComparator'):
        n=sum(v for k,v in leaf.items() if k.startswith(s))
        print('   %-40s %.3f'%(s.replace('rocksdb::InlineSkipList<rocksdb::MemTableRep::KeyComparator const&>','SkipList')[:40],f(n)))
