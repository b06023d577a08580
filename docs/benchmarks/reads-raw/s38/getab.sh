#!/bin/bash
# stop 38: GetBenchmark with whole vs partitioned index/filter blocks (old/new jar), interleaved
cd /tmp/s38; mkdir -p getab
for r in 1 2; do
  for v in old new; do
    [ $r = 2 ] && v=$([ $v = old ] && echo new || echo old)
    flock -x /tmp/p2kv-cpu.lock java -jar bench-$v.jar 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=1000000 -p shards=1 -p readPath=DIRECT -p distribution=uniform,zipfian -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff getab/$v-r$r.json > getab/$v-r$r.txt 2>&1
    echo "$v r$r done"
  done
done
echo DONE
