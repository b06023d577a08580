#!/bin/bash
# StoreOpsMeasure: p2kv with the LRU block cache (before), with HyperClockCache (after), Kafka's stores; rotating order
cd /work/main
CP="$(cat kafka-streams/target/test-cp.txt):kafka-streams/target/test-classes:kafka-streams/target/classes"
OUT=/tmp/s40/kafka-ops; mkdir -p $OUT
run() { # tag kind mode props
  local tag=$1 kind=$2 mode=$3; shift 3
  rm -rf /tmp/s40/db
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g "$@" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" io.p2kv.kafka.bench.StoreOpsMeasure $kind 2000000 1000000 /tmp/s40/db $mode 2>&1 | grep records= | sed "s/^/$tag /" | tee -a $OUT/results.txt
}
for round in 1 2 3; do
  for mode in update get; do
    case $round in
      1) run lru p2kv $mode -Dp2kv.exp.cache=lru; run hcc p2kv $mode; run kafka rocksdb $mode;;
      2) run hcc p2kv $mode; run kafka rocksdb $mode; run lru p2kv $mode -Dp2kv.exp.cache=lru;;
      3) run kafka rocksdb $mode; run lru p2kv $mode -Dp2kv.exp.cache=lru; run hcc p2kv $mode;;
    esac
  done
done
