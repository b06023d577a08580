import sys,subprocess,collections,re
data,ops=sys.argv[1],float(sys.argv[2])
out=subprocess.run(['perf','script','-i',data,'-F','comm,tid,ip,sym,dso','-G'],capture_output=True,text=True).stdout
# -G hides call graph; each sample: first line "comm tid" then frames? use no callchain
cnt=collections.Counter()
for line in out.splitlines():
    if not line.strip(): continue
    m=re.match(r'\s*(.+?)\s+(\d+)\s+([0-9a-f]+)\s+(.*)\s+\((.*)\)\s*$',line)
    if not m: continue
    comm,tid,ip,sym,dso=m.groups()
    if not re.match(sys.argv[3] if len(sys.argv)>3 else r'Thread-\d',comm): continue
    if 'rocksdb' in dso: c='rocksdb-lib'
    elif 'kallsyms' in dso or 'kernel' in dso:
        c='kernel-sched' if re.search(r'sched|switch|yield|futex|schedule|rseq|exit_to_user|syscall|irq',sym) else 'kernel-other(io)'
    elif 'JIT' in dso or 'perf-' in dso:
        c='java-p2kv' if 'io.p2kv.internal' in sym or 'org.agrona' in sym or 'jctools' in sym else ('java-binding' if 'io.p2kv.ycsb' in sym else ('java-ycsb' if 'site.ycsb' in sym else 'java-other'))
    elif 'libjvm' in dso: c='libjvm'
    elif 'libc' in dso: c='libc'
    else: c=dso
    cnt[c]+=1
tot=sum(cnt.values())
for c,n in cnt.most_common(): print('%-18s %.3f us/op'%(c,n/799/ops*1e6))
print('%-18s %.3f us/op'%('callers total',tot/799/ops*1e6))
