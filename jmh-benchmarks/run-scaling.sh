#!/usr/bin/env bash
# The measurements behind docs/benchmarks/SCALING.md: CPU per operation by stage, and throughput on
# one core and on two (taskset), for 1, 2 and 4 shards. Every JMH command takes the exclusive CPU
# lock itself (each hold is about 1-2 minutes), so other agents' builds can run between them.
#
#   jmh-benchmarks/run-scaling.sh [part...]     parts: limit put get scan (default: all)
#
# JSON and logs go to $RAW (default docs/benchmarks/scaling-raw), named <part>-c<cores>[-r<round>];
# every command is appended to $RAW/commands.txt. Then
#   java -cp jmh-benchmarks/target/benchmarks.jar io.p2kv.bench.report.ScalingReport docs/benchmarks $RAW
# writes the model's tables and the plot.
set -euo pipefail
cd "$(dirname "$0")/.."

JAVA=${JAVA:-java}
JAR=${JAR:-jmh-benchmarks/target/benchmarks.jar}
RAW=${RAW:-docs/benchmarks/scaling-raw}
ROUND=${ROUND:-}
ITER=${ITER:--f 1 -wi 1 -w 2 -i 3 -r 2}
LOCK=${LOCK:-/tmp/p2kv-cpu.lock}
mkdir -p "$RAW"

run() { # name cpus pattern params...
  local name=$1${ROUND:+-r$ROUND} cpus=$2 pattern=$3
  shift 3
  local cmd=(taskset -c "$cpus" "$JAVA" -jar "$JAR" "$pattern" $ITER -prof io.p2kv.bench.CpuProfiler "$@"
    -rf json -rff "$RAW/$name.json")
  echo "flock -x $LOCK ${cmd[*]}" >>"$RAW/commands.txt"
  echo "$(date -u +%H:%M:%S) $name" >&2
  flock -x "$LOCK" "${cmd[@]}" >"$RAW/$name.log" 2>&1
}

PUT='-t 16 -p shards=1,2,4 -p maxBatch=128 -p valueBytes=112 -p durability=WAL'
GET='-t 16 -p keys=1000000 -p shards=1,2,4 -p readPath=DIRECT -p distribution=uniform -p separation=none'
SCAN='-t 4 -p keys=500000 -p length=100 -p shards=1,2,4 -p partitioning=hash -p separation=none'

parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(limit put get scan)
for part in "${parts[@]}"; do
  case $part in
    limit) run limit-c2 0,1 'BatchLimitBenchmark.writeBatchOf32$' -p batch=1,4,32 -p valueBytes=112 -p durability=WAL,NO_WAL ;;
    put)
      run put-c1 0 'PutBenchmark.(syncPut|asyncPutCallback)$' $PUT
      run put-c2 0,1 'PutBenchmark.(syncPut|asyncPutCallback)$' $PUT ;;
    get)
      run get-c1 0 'GetBenchmark.p2kvGet$' $GET
      run get-c2 0,1 'GetBenchmark.p2kvGet$' $GET ;;
    scan)
      run scan-c1 0 'ScanBenchmark.p2kvScan$' $SCAN
      run scan-c2 0,1 'ScanBenchmark.p2kvScan$' $SCAN ;;
    *) echo "unknown part $part (limit put get scan)" >&2; exit 2 ;;
  esac
done
