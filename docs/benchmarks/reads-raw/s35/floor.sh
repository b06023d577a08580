#!/usr/bin/env bash
# SCAN-100 over 4 hash shards: p2kv, one RocksDB instance, and the least merge over 4 RocksDB instances
cd /work/main; J=jmh-benchmarks/target/benchmarks.jar; O=${O:-/tmp/exp/floor}; mkdir -p $O
for r in 1 2 3; do
  java -jar $J 'ScanBenchmark.(p2kvScan|rocksScan|rocksX4Scan)$' -t 1 -p keys=500000 -p length=100 -p shards=4 -p partitioning=hash -p separation=default \
    -f 1 -wi 2 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff $O/floor-r$r.json > $O/floor-r$r.log 2>&1
  grep -E "^ScanBenchmark\.\w+ |cpu.caller.ns" $O/floor-r$r.log | grep -v "^ " | sed "s/^/r$r /"
done
