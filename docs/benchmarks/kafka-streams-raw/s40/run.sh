#!/bin/bash
# Kafka Streams benchmark (2 M records, 1 M keys): p2kv with HyperClockCache (hcc, the new default) and with the LRU cache (lru, before), rounds given as tag:round:cache (default hcc-1, lru-1, lru-2, hcc-2;
# the second batch ran as: run.sh hcc:3:hcc lru:3:lru hcc:4:hcc).
# $OUT/classes held copies of core/target/classes, kafka-streams/target/classes and test-classes of the
# measured build (reads-raw/s40-hcc/measured-build.patch: the temporary -Dp2kv.exp.cache switch).
cd /work/main
OUT=/tmp/s40/kb
CP="$(sed "s|$PWD/core/target/classes|$OUT/classes/core|" kafka-streams/target/test-cp.txt):$OUT/classes/test:$OUT/classes/main"
SPECS=("$@"); [ ${#SPECS[@]} -gt 0 ] || SPECS=(hcc:1:hcc lru:1:lru lru:2:lru hcc:2:hcc)
for spec in "${SPECS[@]}"; do
  IFS=: read tag round cache <<< "$spec"
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
    io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 "$round-$round" "$OUT/work" \
    -Xmx1g -Dp2kv.exp.cache=$cache -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > "$OUT/$tag-round-$round.log" 2>&1
  echo "$tag round $round: $(grep -E '^round' "$OUT/$tag-round-$round.log" | tr '\n' ' ')"
  rm -rf "$OUT/work"
done
