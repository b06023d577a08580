# agg.py PERF_DATA [COMM_PREFIX] [N_SELF] [N_INCL]: self and inclusive shares of the JMH worker thread's samples;
# librocksdbjni frames are resolved with nm on the library unzipped from rocksdbjni-11.8.1.jar into
# /tmp/scan4prof/ (perf recorded them as offsets into the deleted /tmp copy the JVM loaded).
import sys, subprocess, bisect, collections, re
data=sys.argv[1]; commpref=sys.argv[2] if len(sys.argv)>2 else 'io.p2kv.bench'
so='/tmp/scan4prof/librocksdbjni-linux64.so'
syms=[]
for line in subprocess.run(['nm','-C','--defined-only',so],capture_output=True,text=True).stdout.splitlines():
    p=line.split(' ',2)
    if len(p)==3 and p[1] in 'TtWw':
        syms.append((int(p[0],16),p[2]))
syms.sort(); addrs=[a for a,_ in syms]
def rsym(off):
    i=bisect.bisect_right(addrs,off)-1
    return syms[i][1] if i>=0 else hex(off)
out=subprocess.run(['perf','script','-i',data,'-F','comm,ip,sym,dso','--no-demangle'],capture_output=True,text=True).stdout
self_c=collections.Counter(); incl=collections.Counter(); n=0
cur=None; frames=[]
def flush():
    global n
    if cur is None or not cur.startswith(commpref[:15]): return
    n+=1
    seen=set()
    for k,f in enumerate(frames):
        if k==0: self_c[f]+=1
        if f not in seen: incl[f]+=1; seen.add(f)
for line in out.splitlines():
    if not line.strip():
        flush(); cur=None; frames=[]; continue
    if not line.startswith((' ','\t')):
        cur=line.strip(); continue
    s=line.strip()
    m=re.match(r'([0-9a-f]+)\s+(.*)\s+\((.*)\)$',s)
    if not m: continue
    ip,sym,dso=m.groups()
    if 'librocksdbjni' in dso:
        # perf gives offsets for unresolved symbols as "[unknown]"; use ip relative? fall back
        mm=re.match(r'\[unknown\]',sym)
        sym='R:'+rsym(int(ip,16)) if mm else 'R:'+sym
    frames.append(sym[:140])
flush()
print('samples',n)
print('--- self'); [print(f'{c*100/n:6.2f}% {s}') for s,c in self_c.most_common(int(sys.argv[3]) if len(sys.argv)>3 else 40)]
print('--- inclusive'); [print(f'{c*100/n:6.2f}% {s}') for s,c in incl.most_common(int(sys.argv[4]) if len(sys.argv)>4 else 60)]
