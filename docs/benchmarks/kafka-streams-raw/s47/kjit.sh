#!/bin/bash
set -euo pipefail
cd /work/main
OUT=/tmp/s47/kjit
mkdir -p $OUT
flock -s /tmp/p2kv-cpu.lock mvn -B -q -pl kafka-streams -am test-compile dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt -Dmdep.includeScope=test
rm -rf "$OUT/classes" && mkdir -p "$OUT/classes"
cp -r core/target/classes "$OUT/classes/core"; cp -r kafka-streams/target/classes "$OUT/classes/main"; cp -r kafka-streams/target/test-classes "$OUT/classes/test"
CP="$(sed "s|$PWD/core/target/classes|$OUT/classes/core|" kafka-streams/target/test-cp.txt):$OUT/classes/test:$OUT/classes/main"
flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
    io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 1-1 "$OUT/work" \
    -Xmx1g -XX:StartFlightRecording=filename=/tmp/s47/jit/,settings=/tmp/s47/jit0.jfc -Dorg.slf4j.simpleLogger.defaultLogLevel=warn 2>&1 | tee "$OUT/round-1.log" | grep -E '^(produced|round|#|p2kv|rocksdb) '
