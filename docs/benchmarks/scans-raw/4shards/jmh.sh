#!/bin/bash
# jmh.sh TREE TAG [THREADS]: one round of SCAN-100 (1 and 4 hash shards, p2kv's default separation)
# against plain RocksDB, under the exclusive CPU lock; output in this directory as TAG.{log,json}.
set -u
TREE=$1; TAG=$2; T=${3:-1}
OUT=$(cd "$(dirname "$0")" && pwd)
cd "$TREE"
flock -x /tmp/p2kv-cpu.lock java -jar jmh-benchmarks/target/benchmarks.jar 'ScanBenchmark.(p2kvScan|rocksScan)$' \
  -t "$T" -p keys=500000 -p length=100 -p shards=1,4 -p partitioning=hash -p separation=default \
  -f 1 -wi 2 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff "$OUT/$TAG.json" > "$OUT/$TAG.log" 2>&1
echo "$TAG done rc=$? $(date -u +%H:%M:%S)"
