#!/bin/bash
# rounds A..B of StreamsBenchmark 12M/12M, no record cache, classes of stop 54 (L0 trigger 8) in /tmp/s54/l0/classes
set -euo pipefail
cd /work/main
C=/tmp/s54/l0/classes
CP="$(sed "s|/work/main/core/target/classes|$C/core|" kafka-streams/target/test-cp.txt):$C/test:$C/main"
O=/tmp/s55/l0; mkdir -p $O
for r in $(seq $1 $2); do
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
    io.p2kv.kafka.bench.StreamsBenchmark 12000000 12000000 "$r-$r" $O/work -Xmx1g \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > $O/round-$r.log 2>&1
  grep 'p2kv/rocksdb' $O/round-$r.log
done
