#!/usr/bin/env bash
# Issue 19's write-path targets, each p2kv result with its plain-RocksDB baseline in the same JMH
# run (same JVM options, same disk state), one round per call:
#   durable-t16  durability SYNC, 16 callers: p2kv sync puts and async puts (16 x 64 in flight)
#                against RocksDB sync=true from 16 threads
#   durable-t1   durability SYNC, one caller, against RocksDB sync=true
#   wal-t1       durability WAL, one sync caller, against RocksDB (the unloaded case)
#   vthreads     256 virtual threads doing sync puts into p2kv and into RocksDB, and the
#                single-thread WriteBatch-of-32 limit (JDK 21+: $JAVA_VT)
# JSON and logs go to $RAW (default docs/benchmarks/write-path-raw) with a round suffix.
#
#   ROUND=1 flock -x /tmp/p2kv-cpu.lock jmh-benchmarks/run-write-path.sh
#
# About 4 minutes on 2 cores. ITER overrides the JMH iteration options; JAR the benchmarks jar
# (a copy, so that a build during the rounds does not change what they run).
set -euo pipefail
cd "$(dirname "$0")/.."

JAVA=${JAVA:-java}
JAVA_VT=${JAVA_VT:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
JAR=${JAR:-jmh-benchmarks/target/benchmarks.jar}
RAW=${RAW:-docs/benchmarks/write-path-raw}
ROUND=${ROUND:-1}
ITER=${ITER:--f 1 -wi 1 -w 2 -i 3 -r 2}
mkdir -p "$RAW"

run() { # java name threads pattern params...
  local java=$1 name=$2 threads=$3 pattern=$4
  shift 4
  local cmd=("$java" -jar "$JAR" "$pattern" -t "$threads" $ITER "$@" -rf json -rff "$RAW/$name-r$ROUND.json")
  echo "${cmd[*]}" >>"$RAW/commands.txt"
  "${cmd[@]}" >"$RAW/$name-r$ROUND.log" 2>&1
}

P2KV='-p shards=1 -p maxBatch=128 -p valueBytes=112 -p baseline=rocksdb'
run "$JAVA" durable-t16 16 'PutBenchmark.(syncPut|asyncPutCallback)$|RocksDbPutBenchmark.put$' $P2KV -p durability=SYNC
run "$JAVA" durable-t1 1 'PutBenchmark.syncPut$|RocksDbPutBenchmark.put$' $P2KV -p durability=SYNC
run "$JAVA" wal-t1 1 'PutBenchmark.syncPut$|RocksDbPutBenchmark.put$' $P2KV -p durability=WAL
run "$JAVA_VT" vthreads 1 'VirtualThreadPutBenchmark.syncPuts$|BatchLimitBenchmark.writeBatchOf32$' \
  -p vthreads=256 -p target=p2kv,rocksdb -p valueBytes=112 -p durability=WAL
grep -h -E '^(PutBenchmark|RocksDbPutBenchmark|VirtualThreadPutBenchmark|BatchLimitBenchmark)\.[a-zA-Z0-9]+ ' "$RAW"/*-r"$ROUND".log
