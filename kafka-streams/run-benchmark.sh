#!/usr/bin/env bash
# Kafka Streams on p2kv against Kafka's default RocksDB stores (issue 18), see
# docs/benchmarks/KAFKA-STREAMS.md. Each round is one run of StreamsBenchmark: its own in-process
# KRaft broker, the input produced once, then the application on Kafka's default stores and on
# p2kv (alternating order), each processing then restoring. Each round holds the exclusive CPU
# lock for about 5 minutes.
#
# usage: kafka-streams/run-benchmark.sh [rounds] [records] [keys]   (from the repository root)
# P2KV_SHARDS=N gives p2kv's shared store N shards instead of the module's default, P2KV_BUDGET=BYTES
# its memory budget. P2KV_BENCH_GUARANTEE=exactly_once_v2 runs both stores under exactly-once, and
# P2KV_BENCH_TRANSACTIONAL=true with Kafka's enable.transactional.statestores. P2KV_BENCH_CACHE=BYTES
# gives both stores Kafka's record cache of that size (Kafka's default: 10485760) instead of none.
# P2KV_BENCH_PAUSE=SECONDS waits that long before each phase and says how busy the machine was.
set -euo pipefail
ROUNDS=${1:-3}
RECORDS=${2:-2000000}
KEYS=${3:-1000000}
OUT=${OUT:-/tmp/p2kv-kafka-bench}
CHILD_OPTIONS=()
if [ -n "${P2KV_SHARDS:-}" ]; then CHILD_OPTIONS=("-Dbench.shards=$P2KV_SHARDS"); fi
if [ -n "${P2KV_BUDGET:-}" ]; then CHILD_OPTIONS+=("-Dbench.budget.bytes=$P2KV_BUDGET"); fi
if [ -n "${P2KV_BENCH_GUARANTEE:-}" ]; then CHILD_OPTIONS+=("-Dbench.guarantee=$P2KV_BENCH_GUARANTEE"); fi
if [ -n "${P2KV_BENCH_TRANSACTIONAL:-}" ]; then CHILD_OPTIONS+=("-Dbench.transactional=$P2KV_BENCH_TRANSACTIONAL"); fi
if [ -n "${P2KV_BENCH_CACHE:-}" ]; then CHILD_OPTIONS+=("-Dbench.cache.bytes=$P2KV_BENCH_CACHE"); fi
DRIVER_OPTIONS=()
if [ -n "${P2KV_BENCH_PAUSE:-}" ]; then DRIVER_OPTIONS=("-Dbench.pause.seconds=$P2KV_BENCH_PAUSE"); fi
mkdir -p "$OUT"
flock -s /tmp/p2kv-cpu.lock mvn -B -q -pl kafka-streams -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-cp.txt -Dmdep.includeScope=test
# A copy of the compiled classes, so a rebuild while the rounds run cannot change what they measure.
rm -rf "$OUT/classes" && mkdir -p "$OUT/classes"
cp -r core/target/classes "$OUT/classes/core"
cp -r kafka-streams/target/classes "$OUT/classes/main"
cp -r kafka-streams/target/test-classes "$OUT/classes/test"
CP="$(sed "s|$PWD/core/target/classes|$OUT/classes/core|" kafka-streams/target/test-cp.txt):$OUT/classes/test:$OUT/classes/main"
for round in $(seq 1 "$ROUNDS"); do
  # The round number picks the order (odd: RocksDB first); one round per run keeps each lock hold short.
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error "${DRIVER_OPTIONS[@]}" -cp "$CP" \
    io.p2kv.kafka.bench.StreamsBenchmark "$RECORDS" "$KEYS" "$round-$round" "$OUT/work" \
    -Xmx1g "${CHILD_OPTIONS[@]}" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn 2>&1 | tee "$OUT/round-$round.log" | grep -E '^(produced|round|#|p2kv|rocksdb) '
done
