#!/bin/bash
# rounds 3 and 4 of StreamsBenchmark 2000000 1000000 on the classes run-benchmark.sh copied (odd round: Kafka's stores first)
cd /work/main
OUT=/tmp/s41/kafka
CP="$(sed "s|$PWD/core/target/classes|$OUT/classes/core|" kafka-streams/target/test-cp.txt):$OUT/classes/test:$OUT/classes/main"
for round in 3 4; do
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
    io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 "$round-$round" "$OUT/work" \
    -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn 2>&1 | tee "$OUT/round-$round.log" | grep -E '^(produced|round|#|p2kv|rocksdb) '
done
