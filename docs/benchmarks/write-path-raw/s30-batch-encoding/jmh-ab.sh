#!/usr/bin/env bash
# A/B of two p2kv JMH jars on the write path: sync, async and async-callback puts (16 callers,
# 1 shard, 112-byte values, WAL) and the batch limit, alternating the jars per round.
set -euo pipefail
D=/work/exp/jmh-ab
ROUNDS=${ROUNDS:-3}
mkdir -p $D/out
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) = 1 ]; then order="base new"; else order="new base"; fi
  for j in $order; do
    flock -x /tmp/p2kv-cpu.lock java -jar $D/$j.jar 'PutBenchmark.(syncPut|asyncPut|asyncPutCallback)$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff $D/out/put-$j-r$r.json > $D/out/put-$j-r$r.txt 2>&1
  done
  flock -x /tmp/p2kv-cpu.lock java -jar $D/base.jar 'BatchLimitBenchmark' -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff $D/out/limit-r$r.json > $D/out/limit-r$r.txt 2>&1
done
