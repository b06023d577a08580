# callers.py PERF_DATA SYMBOL [DEPTH]: the callers of SYMBOL in the JMH worker thread
import sys, subprocess, re, collections, bisect
data=sys.argv[1]; target=sys.argv[2]; depth=int(sys.argv[3]) if len(sys.argv)>3 else 3
so='/tmp/scan4prof/librocksdbjni-linux64.so'
syms=[]
for line in subprocess.run(['nm','-C','--defined-only',so],capture_output=True,text=True).stdout.splitlines():
    p=line.split(' ',2)
    if len(p)==3 and p[1] in 'TtWw': syms.append((int(p[0],16),p[2]))
syms.sort(); addrs=[a for a,_ in syms]
def rsym(off):
    i=bisect.bisect_right(addrs,off)-1; return syms[i][1]
out=subprocess.run(['perf','script','-i',data,'-F','comm,ip,sym,dso'],capture_output=True,text=True).stdout
c=collections.Counter(); tot=0
for block in out.split('\n\n'):
    lines=block.strip().split('\n')
    if not lines or not lines[0].startswith('io.p2kv.bench'): continue
    fr=[]
    for s in lines[1:]:
        m=re.match(r'\s*([0-9a-f]+)\s+(.*)\s+\((.*)\)$',s)
        if not m: continue
        ip,sym,dso=m.groups()
        if 'librocksdbjni' in dso: sym='R:'+rsym(int(ip,16))
        fr.append(sym[:90])
    tot+=1
    for k,f in enumerate(fr):
        if target in f:
            c[' <- '.join(fr[k+1:k+1+depth])]+=1; break
for k,v in c.most_common(15): print(f'{v*100/tot:6.2f}% {k}')
