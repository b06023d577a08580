#!/usr/bin/env bash
# Issue 19's async-callback targets, one round per call: p2kv async puts with callbacks
# (PutBenchmark.asyncPutCallback, 16 callers x 64 in flight, 1 shard, WAL) and RocksDB's
# unordered_write baseline from 16 threads in one JMH run, then the single-thread
# WriteBatch-of-32 limit (BatchLimitBenchmark, 1 thread) right after it. asyncPutCallbackParking
# (callers that park while their window is full instead of yielding in a loop) runs beside
# asyncPutCallback: the same library path, less CPU taken by the callers.
#
#   JAR=jmh-benchmarks/target/benchmarks.jar TAG=head ROUND=1 flock -x /tmp/p2kv-cpu.lock jmh-benchmarks/run-async-callbacks.sh
#
# ONLY=p2kv runs just the p2kv benchmark (for A/B of two builds in one lock hold).
# About 2.5 minutes on 2 cores. ITER overrides the JMH iteration options.
set -euo pipefail
cd "$(dirname "$0")/.."

JAVA=${JAVA:-java}
JAR=${JAR:-jmh-benchmarks/target/benchmarks.jar}
RAW=${RAW:-docs/benchmarks/write-path-raw/async}
TAG=${TAG:-head}
ROUND=${ROUND:-1}
ONLY=${ONLY:-all}
ITER=${ITER:--f 1 -wi 1 -w 2 -i 3 -r 2}
mkdir -p "$RAW"

run() { # name threads pattern params...
  local name=$1 threads=$2 pattern=$3
  shift 3
  local cmd=("$JAVA" -jar "$JAR" "$pattern" -t "$threads" $ITER "$@" -prof io.p2kv.bench.CpuProfiler
    -rf json -rff "$RAW/$TAG-$name-r$ROUND.json")
  echo "$(date -u +%FT%TZ) ${cmd[*]}" >>"$RAW/commands.txt"
  "${cmd[@]}" >"$RAW/$TAG-$name-r$ROUND.log" 2>&1
}

if [ "$ONLY" = p2kv ]; then
  run put 16 'PutBenchmark.asyncPutCallback$' -p shards=1 -p maxBatch=128 -p valueBytes=112 -p durability=WAL
else
  run put 16 'PutBenchmark.asyncPutCallback(Parking)?$|RocksDbPutBenchmark.put$' -p shards=1 -p maxBatch=128 -p valueBytes=112 \
    -p durability=WAL -p baseline=rocksdb-unordered
  run limit 1 'BatchLimitBenchmark.writeBatchOf32$' -p valueBytes=112 -p durability=WAL
fi
grep -h -E '^(PutBenchmark|RocksDbPutBenchmark|BatchLimitBenchmark)\.[a-zA-Z0-9]+(:cpu[.a-z/]+)? ' "$RAW/$TAG"-*-r"$ROUND".log
