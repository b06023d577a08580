import os,sys,time,collections
pid=sys.argv[1]; out=open(sys.argv[2],'w')
def group(n):
    if n.startswith(('C2','C1')): return 'JIT'
    if 'GC' in n or n.startswith('G1'): return 'GC'
    if n.startswith('rocksdb'): return 'rocksbg'
    if n.startswith('p2kv-demo'): return 'callers'
    if n.startswith('p2kv'): return n[:12]
    return 'other'
prev={}
t0=time.time()
while os.path.exists(f'/proc/{pid}'):
    cur={}
    try:
        for tid in os.listdir(f'/proc/{pid}/task'):
            try:
                s=open(f'/proc/{pid}/task/{tid}/stat').read()
                name=s[s.index('(')+1:s.rindex(')')]
                f=s[s.rindex(')')+2:].split()
                cur[tid]=(name,int(f[11])+int(f[12]))
            except Exception: pass
    except Exception: break
    g=collections.Counter()
    for tid,(n,v) in cur.items():
        g[group(n)]+=v-prev.get(tid,(n,0))[1] if tid in prev else 0
    prev=cur
    out.write('%.1f %s\n'%(time.time()-t0,' '.join(f'{k}={v}' for k,v in sorted(g.items()) if v))); out.flush()
    time.sleep(0.5)
