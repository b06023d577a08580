import json,sys,collections,subprocess
f=sys.argv[1]
out=subprocess.run(['jfr','print','--json','--events','jdk.ObjectAllocationSample',f],capture_output=True,text=True).stdout
d=json.loads(out)
evs=d['recording']['events']
tot=0; by=collections.Counter(); byframe=collections.Counter(); bythread=collections.Counter()
for e in evs:
    v=e['values']; w=v['weight']; tot+=w
    cls=v['objectClass']['name'] if v.get('objectClass') else '?'
    st=v.get('stackTrace') or {}
    frames=st.get('frames') or []
    names=[fr['method']['type']['name'].split('.')[-1]+'.'+fr['method']['name'] for fr in frames[:8]]
    # first frame in io.p2kv or kafka or rocksdb
    key=None
    for fr in frames:
        t=fr['method']['type']['name']
        if t.startswith('io.p2kv') or t.startswith('org.apache.kafka') or t.startswith('org.rocksdb'):
            key=t.split('.')[-1]+'.'+fr['method']['name']; break
    by[(cls,key)]+=w
    th=v.get('eventThread') or {}
    bythread[(th.get('javaName') or '?')[:30]]+=w
print('total MB', tot>>20)
for k,w in by.most_common(14): print(w>>20,'MB',k)
print('-- threads')
for k,w in bythread.most_common(6): print(w>>20,'MB',k)
