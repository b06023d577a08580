#!/bin/bash
cd /tmp/s38
for v in F new old F old new F; do
  n=$(( $(ls getab/$v-r*.json 2>/dev/null | wc -l) + 1 ))
  flock -x /tmp/p2kv-cpu.lock java -jar bench-$v.jar 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=1000000 -p shards=1 -p readPath=DIRECT -p separation=default -p distribution=uniform,zipfian -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff getab/$v-r$n.json > getab/$v-r$n.txt 2>&1
  echo "$v r$n done $(date +%T)"
done
echo DONE
