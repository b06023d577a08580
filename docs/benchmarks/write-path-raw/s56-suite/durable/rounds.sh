#!/bin/bash
# rounds A..B: durable sync puts from 16 callers, p2kv (SYNC, fsync per batch) and RocksDB sync=true, order alternating
cd /tmp/s56/suite   # a clean clone of main 7033491, its jar built by run-suite.sh
O=/tmp/s56/durable
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="p2kv rocks"; else order="rocks p2kv"; fi
  for m in $order; do
    if [ $m = p2kv ]; then B='PutBenchmark.syncPut$ -p shards=1 -p maxBatch=128'; else B='RocksDbPutBenchmark -p baseline=rocksdb'; fi
    flock -x /tmp/p2kv-cpu.lock java -jar jmh-benchmarks/target/benchmarks.jar $B -t 16 -p valueBytes=112 -p durability=SYNC \
      -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff $O/r$r-$m.json > $O/r$r-$m.log 2>&1
    echo "round $r $m $(grep -E '^(PutBenchmark|RocksDbPutBenchmark)\.[a-zA-Z]+ ' $O/r$r-$m.log | awk '{print $(NF-3)}')"
  done
done
