#!/usr/bin/env bash
cd /work/main/jmh-benchmarks/target
J=benchmarks.jar
for r in 1 2 3; do
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'ScanBenchmark.(p2kvScan|rocksScan)$' -t 1 -p keys=500000 -p length=100 -p shards=1,4 -p partitioning=hash \
    -p separation=default -f 1 -wi 2 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff /work/exp/jmh/raw/scanD-s29-r$r.json > /work/exp/jmh/scanD-$r.txt 2>&1
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=1000000 -p shards=1 -p readPath=DIRECT \
    -p distribution=uniform,zipfian -p separation=default -f 1 -wi 2 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff /work/exp/jmh/raw/getD-s29-r$r.json > /work/exp/jmh/getD-$r.txt 2>&1
  echo "round $r $(date +%T)"
done
