#!/usr/bin/env bash
# Durable writes (durability SYNC, an fsync per batch) in one JMH run: p2kv's sync puts and async
# puts (N callers x 64 in flight) against plain RocksDB with sync=true from the same N threads, and
# the single-caller case against RocksDB's. Writes the JSON and log to $RAW (default
# docs/benchmarks/write-path-raw) with a round suffix; docs/benchmarks/WRITE-PATH.md reads them.
#
#   flock -x /tmp/p2kv-cpu.lock jmh-benchmarks/run-durable.sh          # round 1, 16 callers
#   ROUND=2 THREADS=16 flock -x /tmp/p2kv-cpu.lock jmh-benchmarks/run-durable.sh
#
# About 2.5 minutes on 2 cores. ITER overrides the JMH iteration options.
set -euo pipefail
cd "$(dirname "$0")/.."

JAVA=${JAVA:-java}
JAR=jmh-benchmarks/target/benchmarks.jar
RAW=${RAW:-docs/benchmarks/write-path-raw}
ROUND=${ROUND:-1}
THREADS=${THREADS:-16}
ITER=${ITER:--f 1 -wi 1 -w 2 -i 3 -r 2}
mkdir -p "$RAW"

run() { # name threads pattern params...
  local name=$1 threads=$2 pattern=$3
  shift 3
  local cmd=("$JAVA" -jar "$JAR" "$pattern" -t "$threads" $ITER "$@" -rf json -rff "$RAW/$name-r$ROUND.json")
  echo "${cmd[*]}" >>"$RAW/commands.txt"
  "${cmd[@]}" >"$RAW/$name-r$ROUND.log" 2>&1
}

# p2kv and RocksDB alternate inside one JMH run (same JVM options, same disk state).
run durable-t$THREADS "$THREADS" 'PutBenchmark.(syncPut|asyncPutCallback)$|RocksDbPutBenchmark.put$' \
  -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=SYNC -p baseline=rocksdb
run durable-t1 1 'PutBenchmark.syncPut$|RocksDbPutBenchmark.put$' \
  -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=SYNC -p baseline=rocksdb
grep -h -E '^(PutBenchmark|RocksDbPutBenchmark)\.[a-zA-Z]+ ' "$RAW"/durable-*-r"$ROUND".log
