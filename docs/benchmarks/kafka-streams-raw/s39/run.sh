#!/bin/bash
# Kafka Streams benchmark (2 M records, 1 M keys): p2kv's write buffer of 1000 records (base) vs 8000, rounds base-1, r8000-1, r8000-2, base-2.
cd /work/main
OUT=/tmp/s39/kb
CP="$(sed "s|$PWD/core/target/classes|$OUT/classes/core|" kafka-streams/target/test-cp.txt):$OUT/classes/test:$OUT/classes/main"
for spec in base:1:1000 r8000:1:8000 r8000:2:8000 base:2:1000; do
  IFS=: read tag round recs <<< "$spec"
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
    io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 "$round-$round" "$OUT/work" \
    -Xmx1g -Dxp.records=$recs -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > "$OUT/$tag-round-$round.log" 2>&1
  echo "$tag round $round: $(grep -E '^round' "$OUT/$tag-round-$round.log" | tr '\n' ' ')"
  rm -rf "$OUT/work"
done
