#!/bin/bash
# Durable sync puts, 16 callers: old (bdc951d, the last suite's code) vs new (5f1073f) jars, rounds old,new,new,old,
# each with RocksDB's sync=true baseline from the same jar right after.
ITER="-f 1 -wi 1 -w 2 -i 3 -r 2"
for j in old new new old; do
  flock -x /tmp/p2kv-cpu.lock sh -c "java -jar /tmp/s39/jars/$j.jar 'PutBenchmark.syncPut\$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=SYNC $ITER -rf json -rff p2kv-$j-\$(date +%H%M%S).json > p2kv-$j-\$(date +%H%M%S).log 2>&1; java -jar /tmp/s39/jars/$j.jar RocksDbPutBenchmark -t 16 -p baseline=rocksdb -p valueBytes=112 -p durability=SYNC $ITER -rf json -rff rocks-$j-\$(date +%H%M%S).json > rocks-$j-\$(date +%H%M%S).log 2>&1"
  echo "$j done $(date +%T)"
done
