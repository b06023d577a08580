#!/bin/bash
# usage: run12.sh ROUND [records keys]  (from /work/exp)
OUT=${OUT:-/tmp/s52/kb}; R=$1; REC=${2:-12000000}; KEYS=${3:-12000000}; TAG=${TAG:-}
CP="$(sed "s|$PWD/core/target/classes|$OUT/classes/core|" kafka-streams/target/test-cp.txt):$OUT/classes/test:$OUT/classes/main"
flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
    io.p2kv.kafka.bench.StreamsBenchmark "$REC" "$KEYS" "$R-$R" "$OUT/work" \
    -Xmx1g -XX:NativeMemoryTracking=summary -Dbench.memdetail=true -Dbench.memdetail.dir=/tmp/s52/mem $EXTRA -Dorg.slf4j.simpleLogger.defaultLogLevel=warn 2>&1 | tee "/tmp/s52/mem/round$TAG-$R-$REC.log" | grep -E '^(produced|round|#|p2kv|rocksdb) '
