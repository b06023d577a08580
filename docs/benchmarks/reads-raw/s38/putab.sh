#!/bin/bash
# stop 38: sync puts, RocksDB's default block-cache shards (old) vs shards of >= 16 MiB (F), interleaved
cd /tmp/s38; mkdir -p putab
for v in old F F old; do
  n=$(( $(ls putab/$v-t16-r*.json 2>/dev/null | wc -l) + 1 ))
  flock -x /tmp/p2kv-cpu.lock java -jar bench-$v.jar 'PutBenchmark.syncPut$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff putab/$v-t16-r$n.json > putab/$v-t16-r$n.txt 2>&1
  flock -x /tmp/p2kv-cpu.lock java -jar bench-$v.jar 'PutBenchmark.syncPut$|RocksDbPutBenchmark' -t 1 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -p baseline=rocksdb -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff putab/$v-t1-r$n.json > putab/$v-t1-r$n.txt 2>&1
  echo "$v r$n done $(date +%T)"
done
echo DONE
