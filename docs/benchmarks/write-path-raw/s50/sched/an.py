import sys,glob
tag=sys.argv[1]; a_i=int(sys.argv[2]); b_i=int(sys.argv[3])
def rd(f):
    L=open(f).read().splitlines(); t=float(L[0]); d={}
    for l in L[1:]:
        p=l.split()
        if len(p)<7: continue
        d[p[0]]=(p[1],int(p[2]),int(p[3]),int(p[4]),int(p[5]),int(p[6]))
    return t,d
ta,a=rd(f'snap-{tag}-{a_i}.txt'); tb,b=rd(f'snap-{tag}-{b_i}.txt')
wall=(tb-ta)*1e9
rows=[]
for k,v in b.items():
    if k in a:
        u=a[k]; rows.append((v[1]-u[1],v[0]+'/'+k,v[2]-u[2],v[4]-u[4],v[5]-u[5]))
rows.sort(reverse=True)
print(f"{tag}: snapshots {a_i}..{b_i}, wall {wall/1e9:.2f}s; per thread share of wall: on cpu, waiting runnable, neither (blocked); switches per s")
for cpu,n,rq,vol,inv in rows[:8]:
    print(f"{n:26s} cpu {cpu/wall:5.2f} runnable {rq/wall:5.2f} blocked {max(0,1-(cpu+rq)/wall):5.2f} voluntary/s {vol*1e9/wall:8.0f} involuntary/s {inv*1e9/wall:8.0f}")
print(f"all threads: cpu {sum(r[0] for r in rows)/wall:.2f} cores, runnable-waiting {sum(r[2] for r in rows)/wall:.2f}")
