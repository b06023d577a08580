#!/usr/bin/env bash
# A/B of two p2kv JMH jars on UpdateBenchmark (16 callers, 1 shard, uniform and Zipfian), 3 rounds
# alternating the jars; RocksDB's locked loop runs in each jar's command (same code in both).
set -euo pipefail
D=/work/exp/jmh-ab
mkdir -p $D/upd
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="base new"; else order="new base"; fi
  for j in $order; do
    flock -x /tmp/p2kv-cpu.lock java -jar $D/$j.jar 'UpdateBenchmark.(p2kvUpdate|rocksdbLocked)$' -t 16 -p distribution=uniform,zipfian -p shards=1 -rf json -rff $D/upd/upd-$j-r$r.json > $D/upd/upd-$j-r$r.txt 2>&1
  done
done
