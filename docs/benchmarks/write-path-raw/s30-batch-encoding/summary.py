#!/usr/bin/env python3
# Per benchmark and jar: each round's score and the median (run from this directory).
import json,glob,statistics,collections
res=collections.defaultdict(list)
for f in sorted(glob.glob("*.json")):
    tag=f.rsplit('.',1)[0]
    for b in json.load(open(f)):
        name=b['benchmark'].split('.')[-1]
        jar='limit' if tag.startswith('limit') else tag.split('-')[1]
        res[(name,jar)].append((tag.split('-')[-1],b['primaryMetric']['score']))
for k,v in sorted(res.items()):
    print(k,' '.join(f"{r}:{s/1000:.0f}K" for r,s in v),f"median {statistics.median([s for _,s in v])/1000:.0f}K")
