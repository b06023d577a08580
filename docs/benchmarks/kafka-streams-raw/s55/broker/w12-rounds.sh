#!/bin/bash
# rounds A..B of StreamsBenchmark 12M/12M, no record cache, with a warm-up of 1M records per store first
# (classes of this stop's kw1 run: level-0 trigger 8, the warm-up and the broker's CPU per phase)
set -euo pipefail
cd /work/main
C=/tmp/s55/kw1/classes
CP="$(sed "s|/work/main/core/target/classes|$C/core|" kafka-streams/target/test-cp.txt):$C/test:$C/main"
O=/tmp/s55/w12; mkdir -p $O
for r in $(seq $1 $2); do
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -Dbench.warmup.records=1000000 -cp "$CP" \
    io.p2kv.kafka.bench.StreamsBenchmark 12000000 12000000 "$r-$r" $O/work -Xmx1g \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > $O/round-$r.log 2>&1
  grep 'p2kv/rocksdb' $O/round-$r.log
done
