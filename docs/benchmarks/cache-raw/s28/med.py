# med.py JSON...: median over forks of each configuration's fork mean (ops/s), with the forks
import json,statistics as st,sys
for fn in sys.argv[1:]:
    for b in json.load(open(fn)):
        p=b['params']; raw=b['primaryMetric']['rawData']
        forks=[st.mean(f) for f in raw]
        name=b['benchmark'].split('.')[-2]+'.'+b['benchmark'].split('.')[-1]
        keyp={k:v for k,v in p.items() if k in('cache','distribution','readPercent')}
        print('%-28s %-45s median %9.0f  forks %s'%(name,keyp,st.median(forks),' '.join('%.0f'%f for f in forks)))
