import sys, bisect, re, collections
syms=[]
for l in open('/tmp/rso/syms.txt'):
    p=l.rstrip('\n').split(' ',2)
    if len(p)==3: syms.append((int(p[0],16),p[2]))
syms.sort(); addrs=[a for a,_ in syms]
agg=collections.Counter(); other=collections.Counter()
for l in sys.stdin:
    m=re.match(r'\s*[\d.]+%\s+(\d+)\s+(\S+)\s+\[.\]\s+(\S.*)$', l)
    if not m: continue
    n=int(m.group(1)); dso=m.group(2); sym=m.group(3).strip()
    if 'rocksdbjni' in dso and sym.startswith('0x'):
        a=int(sym,16); i=bisect.bisect_right(addrs,a)-1
        agg[syms[i][1][:110] if i>=0 else sym]+=n
    else:
        agg[(dso[:20]+' '+sym)[:110]]+=n
tot=sum(agg.values())
print('total', tot)
for k,v in agg.most_common(int(sys.argv[1]) if len(sys.argv)>1 else 30): print('%6d %5.1f%% %s'%(v,100*v/tot,k))
