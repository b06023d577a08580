#!/bin/bash
# rounds A..B of StreamsBenchmark with Kafka's default record cache (10 MiB); classes from /tmp/s53/cache
set -euo pipefail
cd /work/main
CP="$(sed "s|/work/main/core/target/classes|/tmp/s53/cache/classes/core|" kafka-streams/target/test-cp.txt):/tmp/s53/cache/classes/test:/tmp/s53/cache/classes/main"
REC=${REC:-2000000}; KEYS=${KEYS:-1000000}; O=${O:-/tmp/s53/cache}
for r in $(seq $1 $2); do
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
    io.p2kv.kafka.bench.StreamsBenchmark $REC $KEYS "$r-$r" $O/work -Xmx1g -Dbench.cache.bytes=${CACHE:-10485760} ${EXTRA:-} \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > $O/round-$REC-$r.log 2>&1
  grep 'p2kv/rocksdb' $O/round-$REC-$r.log
done
