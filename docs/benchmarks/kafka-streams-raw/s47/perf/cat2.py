import sys,subprocess,collections,re
data,pid,ops=sys.argv[1],sys.argv[2],float(sys.argv[3])
out=subprocess.run(['perf','script','-i',data,'--pid',pid,'-F','comm,tid,ip,sym,dso','-G'],capture_output=True,text=True).stdout
cat=collections.Counter(); sym=collections.Counter(); thr=collections.Counter()
for line in out.splitlines():
    m=re.match(r'\s*(.+?)\s+(\d+)\s+([0-9a-f]+)\s+(.*)\s+\((.*)\)\s*$',line)
    if not m: continue
    comm,tid,ip,s,dso=m.groups()
    g='stream' if comm.startswith('bench-') else ('worker' if 'p2kv-shard' in comm else ('rocksdb-bg' if comm.startswith('rocksdb') else ('jit' if 'Compiler' in comm else comm)))
    thr[g]+=1
    if g!='stream': continue
    if 'rocksdb' in dso: c='rocksdb-lib'
    elif 'kallsyms' in dso: c='kernel'
    elif 'perf-' in dso or 'JIT' in dso:
        c='java:p2kv' if 'io.p2kv' in s else ('java:kafka' if 'org.apache.kafka' in s else 'java:other')
    elif 'libjvm' in dso: c='libjvm'
    elif 'libc' in dso: c='libc'
    else: c=dso.split('/')[-1]
    cat[c]+=1; sym[(c,s[:90])]+=1
f=lambda n: n/499/ops*1e6
print('threads (us/record):', ', '.join('%s %.2f'%(k,f(v)) for k,v in thr.most_common(8)))
print('stream threads by category:')
for c,n in cat.most_common(12): print('  %-14s %.3f'%(c,f(n)))
print('top stream-thread symbols:')
for (c,s),n in sym.most_common(30): print('  %.3f %-12s %s'%(f(n),c,s))
