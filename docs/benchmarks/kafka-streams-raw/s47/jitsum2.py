import json,subprocess,sys,collections,re
f=sys.argv[1]
def ev(name):
    out=subprocess.run(['jfr','print','--json','--events',name,f],capture_output=True,text=True).stdout
    return json.loads(out)['recording']['events']
def dur(s):
    m=re.match(r'PT(?:(\d+)M)?([\d.]+)S',s)
    return (int(m.group(1) or 0)*60+float(m.group(2))) if m else 0
def cls(m): return m['type']['name'].replace('/','.')
def pkg(t):
    for p in ['io.p2kv.internal','io.p2kv.kafka','io.p2kv','org.rocksdb','org.apache.kafka.streams','org.apache.kafka.clients','org.apache.kafka.common','org.apache.kafka','java.util.TimSort','java.util.HashMap','java.','jdk.','sun.']:
        if t.startswith(p): return p
    return 'other'
c=ev('jdk.Compilation')
tot=collections.Counter(); n=collections.Counter(); bym=collections.Counter(); nm=collections.Counter()
for e in c:
    v=e['values']; t=cls(v['method']); d=dur(v['duration'])
    p=pkg(t); tot[p]+=d; n[p]+=1; key=t+'.'+v['method']['name']; bym[key]+=d; nm[key]+=1
print('compilations', len(c), 'total s %.2f'%sum(tot.values()))
for p,t in tot.most_common(16): print('  %-28s %6.2f s  n=%5d'%(p,t,n[p]))
print(' top methods by compile time:')
for k,t in bym.most_common(12): print('   %6.3f s n=%3d %s'%(t,nm[k],k))
d=ev('jdk.Deoptimization')
dc=collections.Counter()
for e in d:
    v=e['values']; t=cls(v['method'])+'.'+v['method']['name']; dc[pkg(cls(v['method']))]+=1
print('deoptimizations', len(d), dict(dc.most_common(8)))
