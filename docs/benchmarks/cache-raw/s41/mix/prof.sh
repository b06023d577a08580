#!/bin/bash
# 95/5 Zipfian mix, 16 callers: CPU per operation by thread group, p2kv cache off / 64 MiB and RocksDB
cd /tmp/s41/mix
J=/work/main/jmh-benchmarks/target/benchmarks.jar
for r in 1 2; do
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'MixedBenchmark' -t 16 -p readPercent=95 -p shards=1 -p cache=off,64 \
    -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff mix-r$r.json > mix-r$r.txt 2>&1
  echo "round $r done $(date +%T)"
done
