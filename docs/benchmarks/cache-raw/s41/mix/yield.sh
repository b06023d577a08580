#!/bin/bash
# 95/5 and 50/50 Zipfian mixes, 16 callers, cache off: sync callers yield 50 us before parking (default) or park at once
cd /tmp/s41/mix
J=/work/main/jmh-benchmarks/target/benchmarks.jar
for r in 1 2; do
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'MixedBenchmark.p2kv' -t 16 -p readPercent=95,50 -p shards=1 -p cache=off -p yieldWaitNanos=0,50000 \
    -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff yield-r$r.json > yield-r$r.txt 2>&1
  echo "round $r done $(date +%T)"
done
