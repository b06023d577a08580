#!/usr/bin/env bash
# Kafka Streams benchmark: async restore (current) vs sync restore (-Dp2kv.exp.syncRestore=true), alternating rounds.
set -uo pipefail
cd /tmp/s33k
OUT=/work/exp/s33/kafka-ab; mkdir -p $OUT/classes
rm -rf "$OUT/classes" && mkdir -p "$OUT/classes"
cp -r core/target/classes "$OUT/classes/core"; cp -r kafka-streams/target/classes "$OUT/classes/main"; cp -r kafka-streams/target/test-classes "$OUT/classes/test"
CP="$(sed "s|$PWD/core/target/classes|$OUT/classes/core|" kafka-streams/target/test-cp.txt):$OUT/classes/test:$OUT/classes/main"
i=0
for round in ${ROUNDS:-1 2 3}; do
  for v in ${VARIANTS:-async sync}; do
    i=$((i+1))
    flag=false; [ $v = sync ] && flag=true
    # order by i: odd RocksDB first
    flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
      io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 "$i-$i" "$OUT/work" \
      -Xmx1g -Dp2kv.exp.syncRestore=$flag -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > "$OUT/$v-r$round.log" 2>&1
    echo "== $v r$round (run $i)"; grep -E '^(round|p2kv|rocksdb) ' "$OUT/$v-r$round.log"
  done
done
