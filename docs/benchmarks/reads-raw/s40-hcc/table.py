import json,glob,collections,statistics,re,sys
d=collections.defaultdict(dict)
for f in sorted(glob.glob(sys.argv[1]+'/*.json')):
    m=re.match(r'.*/(\w+)-(lru|hcc)-(\d)\.json',f); step,v,r=m.groups()
    try: js=json.load(open(f))
    except Exception: continue
    for b in js:
        p=b.get('params',{})
        name=b['benchmark'].split('.')[-1]+' '+' '.join(f"{k}={p[k]}" for k in ('distribution','separation') if k in p)
        d[(step,name)][(v,r)]=b['primaryMetric']['score']
for (step,name),vals in sorted(d.items()):
    row=[]
    for v in ('lru','hcc'):
        xs=[vals.get((v,str(r))) for r in range(1,10) if (v,str(r)) in vals]
        row.append(v+': '+', '.join('%.0fK'%(x/1e3) for x in xs)+' (median %.0fK)'%(statistics.median([x for x in xs if x])/1e3))
    print(step,name,' | '.join(row))
