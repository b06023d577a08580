#!/usr/bin/env bash
# Runs p2kv's standard JMH suite against its plain-RocksDB baselines, in one run, and renders
# docs/benchmarks/RESULTS.md and docs/benchmarks/results.png. About 20 minutes on 2 cores.
#
#   jmh-benchmarks/run-suite.sh            # the standard suite
#   QUICK=1 jmh-benchmarks/run-suite.sh    # 1-second iterations, for checking the script (~6 min)
#
# JDK 17 (`java` on the PATH, or $JAVA) runs everything but the virtual-thread benchmark, which
# needs JDK 21+ ($JAVA_VT, default: the Temurin JDK 25 installed beside it; skipped if absent).
set -euo pipefail
cd "$(dirname "$0")/.."

JAVA=${JAVA:-java}
JAVA_VT=${JAVA_VT:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
JAR=jmh-benchmarks/target/benchmarks.jar
OUT=docs/benchmarks
RAW=$OUT/raw
if [ ! -f "$JAR" ]; then
  mvn -B -q -DskipTests -pl jmh-benchmarks -am package
fi
rm -rf "$RAW"
mkdir -p "$RAW"

if [ "${QUICK:-0}" = 1 ]; then
  ITER="-f 1 -wi 1 -w 1 -i 2 -r 1"
  SCAN_ITER=$ITER
  KEYS=200000
  SCAN_KEYS=100000
else
  ITER="-f 1 -wi 1 -w 2 -i 3 -r 2"
  # A single-caller scan ramps up over about 6 s on 2 cores (JIT and caches): with one 2-s warm-up
  # iteration, the first measured one ran at a third to two thirds of the next two, on both sides
  # (docs/benchmarks/RESULTS.md, run of 2026-11-27; docs/benchmarks/SCANS.md).
  SCAN_ITER="-f 1 -wi 3 -w 2 -i 3 -r 2"
  KEYS=1000000
  SCAN_KEYS=500000
fi
PROF="-prof gc -prof io.p2kv.bench.RssProfiler"
COMMANDS=$RAW/commands.txt
: > "$COMMANDS"

step() { # step NAME JAVA-BINARY JMH-ARGS...
  local name=$1 java=$2
  shift 2
  local cmd="$java -jar $JAR $* $ITER $PROF -rf json -rff $RAW/$name.json"
  echo "$cmd" >> "$COMMANDS"
  echo "== $name: $cmd"
  $cmd 2>&1 | tee -a "$RAW/log.txt" | grep -E "^(Benchmark|[A-Z][A-Za-z]+Benchmark\.)|^# p2kv|Exception" || true
}

START=$(date +%s)
W128="-p valueBytes=112 -p durability=WAL"
# Writes, 16 callers, 128-byte pairs: p2kv sync/async and every baseline, plus the batching limit.
step put-sync-16     "$JAVA" 'PutBenchmark.syncPut$'   -t 16 -p shards=1,2,4 -p maxBatch=128 $W128
step put-nobatch-16  "$JAVA" 'PutBenchmark.syncPut$'   -t 16 -p shards=1 -p maxBatch=1 $W128
# The hand-off: sync callers parking at once (0) against yielding first (the default, 50 us).
step put-handoff-1   "$JAVA" 'PutBenchmark.syncPut$'   -t 1 -p shards=1 -p maxBatch=128 -p yieldWaitNanos=0 $W128
step put-handoff-16  "$JAVA" 'PutBenchmark.syncPut$'   -t 16 -p shards=1 -p maxBatch=128 -p yieldWaitNanos=0 $W128
step put-async-16    "$JAVA" 'PutBenchmark.asyncPut'   -t 16 -p shards=1,2 -p maxBatch=128 $W128
step rocks-put-16    "$JAVA" 'RocksDbPutBenchmark'     -t 16 -p baseline=rocksdb,rocksdb-pipelined,rocksdb-unordered,rocksdb-x2,rocksdb-x4 $W128
step batch-limit     "$JAVA" 'BatchLimitBenchmark'     -p valueBytes=112,1024 -p durability=WAL,SYNC
# 1 and 64 callers.
step put-sync-1-64   "$JAVA" 'PutBenchmark.syncPut$'   -t 1 -p shards=1 -p maxBatch=128 $W128
step rocks-put-1     "$JAVA" 'RocksDbPutBenchmark'     -t 1 -p baseline=rocksdb $W128
step put-sync-64     "$JAVA" 'PutBenchmark.syncPut$'   -t 64 -p shards=1 -p maxBatch=128 $W128
step rocks-put-64    "$JAVA" 'RocksDbPutBenchmark'     -t 64 -p baseline=rocksdb $W128
# Durable writes (fsync per batch vs per write) and 1 KB values.
step put-durable-16  "$JAVA" 'PutBenchmark.syncPut$'   -t 16 -p shards=1 -p maxBatch=128 -p valueBytes=112 -p durability=SYNC
step put-durable-async-16 "$JAVA" 'PutBenchmark.asyncPutCallback$' -t 16 -p shards=1 -p maxBatch=128 -p valueBytes=112 -p durability=SYNC
step rocks-durable   "$JAVA" 'RocksDbPutBenchmark'     -t 16 -p baseline=rocksdb -p valueBytes=112 -p durability=SYNC
step put-1k-16       "$JAVA" 'PutBenchmark.(syncPut|asyncPutCallback)$' -t 16 -p shards=1 -p maxBatch=128 -p valueBytes=1024 -p durability=WAL
step rocks-1k-16     "$JAVA" 'RocksDbPutBenchmark'     -t 16 -p baseline=rocksdb,rocksdb-unordered -p valueBytes=1024 -p durability=WAL
# Reads over a preloaded, compacted store.
step get-16          "$JAVA" 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=$KEYS -p shards=1 -p readPath=DIRECT,WORKER -p distribution=uniform,zipfian
step get-batch-16    "$JAVA" 'GetBenchmark.(p2kvGetAsync|p2kvMultiGet32|rocksMultiGet32)$' -t 16 -p keys=$KEYS -p shards=1 -p readPath=WORKER -p distribution=uniform
# Ordered reads (one caller): SCAN and RANGE against plain RocksDB; 4 shards hashed vs key-range.
ITER=$SCAN_ITER step scans-1         "$JAVA" 'ScanBenchmark.(p2kvScan|rocksScan)$'   -t 1 -p keys=$SCAN_KEYS -p length=10,100,1000 -p shards=1 -p partitioning=hash
ITER=$SCAN_ITER step ranges-1        "$JAVA" 'ScanBenchmark.(p2kvRange|rocksRange)$' -t 1 -p keys=$SCAN_KEYS -p length=100,1000 -p shards=1 -p partitioning=hash
ITER=$SCAN_ITER step scans-4         "$JAVA" 'ScanBenchmark.(p2kvScan|p2kvRange)$'   -t 1 -p keys=$SCAN_KEYS -p length=100 -p shards=4 -p partitioning=hash,range
# Cross-shard atomic batches vs the same puts one by one (4 shards).
step batches-16      "$JAVA" 'BatchBenchmark'          -t 16 -p shards=4 -p ops=2,8
# Mixed read/update, Zipfian.
step mixed-16        "$JAVA" 'MixedBenchmark'          -t 16 -p keys=$KEYS -p shards=1 -p readPercent=50,95
# Read-modify-write (128-byte values): P2kv.update vs locked get-modify-put on RocksDB and on p2kv.
step update-16       "$JAVA" 'UpdateBenchmark'         -t 16 -p keys=$KEYS -p shards=1 -p distribution=uniform,zipfian
# Virtual-thread callers (JDK 21+).
if [ -x "$JAVA_VT" ]; then
  step vthreads      "$JAVA_VT" 'VirtualThreadPutBenchmark' -p vthreads=256 -p target=p2kv,rocksdb
fi
END=$(date +%s)
echo "suite took $(( (END - START) / 60 )) min $(( (END - START) % 60 )) s" | tee -a "$RAW/log.txt"

{
  echo "jmh-benchmarks/run-suite.sh$([ "${QUICK:-0}" = 1 ] && echo ' (QUICK=1)'), which ran, in $(( (END - START) / 60 )) min:"
  cat "$COMMANDS"
} > "$RAW/command.txt"
"$JAVA" -Djava.awt.headless=true -cp "$JAR" io.p2kv.bench.report.ResultsReport "$OUT" "$RAW/command.txt" "$RAW"/*.json
