#!/usr/bin/env bash
# JMH SCAN-1000 and RANGE-100/1000 on one shard: eed49bc (bench-new) vs + single-cursor drain (bench-new2), alternating.
set -uo pipefail
OUT=/work/exp/s33/jmh-long; mkdir -p $OUT
for r in $(seq 1 ${ROUNDS:-2}); do
  for b in new new2; do
    flock -x /tmp/p2kv-cpu.lock java -jar /work/exp/s33/bench-$b.jar 'ScanBenchmark.(p2kvScan|rocksScan|p2kvRange|rocksRange)$' -t 1 -p keys=500000 -p length=1000 -p shards=1 -p partitioning=hash -p separation=default -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff $OUT/$b-r$r.json > $OUT/$b-r$r.txt 2>&1
    echo "$b r$r"; grep -E '^ScanBenchmark' $OUT/$b-r$r.txt
  done
done
cd /work/main
flock -x /tmp/p2kv-cpu.lock java -jar jmh-benchmarks/target/benchmarks.jar 'PutBenchmark.asyncPutCallback$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=SYNC -f 1 -wi 1 -w 2 -i 3 -r 2 -prof gc -prof io.p2kv.bench.RssProfiler -rf json -rff /work/exp/s33/put-durable-async-16b.json > /work/exp/s33/put-durable-async-16b.log 2>&1
echo durable done
