#!/bin/bash
# stop 40: sync puts with the LRU block cache (lru) vs HyperClockCache (hcc), memtables charged to it; same jar, rounds lru, hcc, hcc, lru
cd /tmp/s40/putab
J=/tmp/s40/jmh/hcc.jar
for v in lru hcc hcc lru; do
  n=$(( $(ls $v-t16-r*.json 2>/dev/null | wc -l) + 1 ))
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'PutBenchmark.syncPut$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend "-Dp2kv.exp.cache=$v" -rf json -rff $v-t16-r$n.json > $v-t16-r$n.txt 2>&1
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'PutBenchmark.syncPut$|RocksDbPutBenchmark' -t 1 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -p baseline=rocksdb -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend "-Dp2kv.exp.cache=$v" -rf json -rff $v-t1-r$n.json > $v-t1-r$n.txt 2>&1
  echo "$v r$n done $(date +%T)"
done
