#!/bin/bash
# 95/5 Zipfian mix, 16 callers, cache off / 64 MiB / RocksDB, with a long warm-up (4 x 4 s) so the cache is warm when measured
J=/work/main/jmh-benchmarks/target/benchmarks.jar
for r in 1 2; do
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'MixedBenchmark' -t 16 -p readPercent=95 -p shards=1 -p cache=off,64 \
    -f 1 -wi 4 -w 4 -i 3 -r 3 -prof io.p2kv.bench.CpuProfiler -rf json -rff warm-r$r.json > warm-r$r.txt 2>&1
  echo "round $r done $(date +%T)"
done
