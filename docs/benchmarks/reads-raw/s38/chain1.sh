#!/bin/bash
cd /tmp/s38
for v in new old old new; do
  n=$(( $(ls getab/$v-r*.json | wc -l) + 1 ))
  flock -x /tmp/p2kv-cpu.lock java -jar bench-$v.jar 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=1000000 -p shards=1 -p readPath=DIRECT -p separation=default -p distribution=uniform,zipfian -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff getab/$v-r$n.json > getab/$v-r$n.txt 2>&1
  echo "$v r$n done $(date +%T)"
done
cd /work/main && OUT=/tmp/s38/kbig2 kafka-streams/run-benchmark.sh 1 12000000 12000000 > /tmp/s38/kbig2.log 2>&1
echo "kafka done $(date +%T)"
