#!/usr/bin/env bash
# Interleaved A/B of issue 12: before (019f258) vs after (the refactor), same machine, same run.
set -u
cd /work/ab2
OPTS="-f 1 -wi 1 -w 2 -i 3 -r 2 -t 16 -rf json"
for round in 1 2 3; do
  if [ $((round % 2)) -eq 1 ]; then order="before after"; else order="after before"; fi
  for v in $order; do
    java -jar /work/benchmarks-$v.jar 'PutBenchmark.(syncPut|asyncPutCallback)$' -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL $OPTS -rff put-$v-$round.json > put-$v-$round.log 2>&1
    java -jar /work/benchmarks-$v.jar 'RocksDbPutBenchmark' -p baseline=rocksdb -p valueBytes=112 -p durability=WAL $OPTS -rff rput-$v-$round.json > rput-$v-$round.log 2>&1
    java -jar /work/benchmarks-$v.jar 'GetBenchmark.(p2kvGet|rocksGet)$' -p shards=1 -p readPath=DIRECT -p distribution=uniform,zipfian $OPTS -rff get-$v-$round.json > get-$v-$round.log 2>&1
    echo "round $round $v done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> progress.txt
  done
done
echo ALLDONE >> progress.txt
