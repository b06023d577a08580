#!/bin/bash
# 95/5 mix with the cache, long warm-up: G1 (default) against ParallelGC, to see where the cache's GC time goes
J=/work/main/jmh-benchmarks/target/benchmarks.jar
for r in 1; do
for gc in G1 Parallel; do
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'MixedBenchmark.p2kv' -t 16 -p readPercent=95 -p shards=1 -p cache=64 \
    -f 1 -wi 4 -w 4 -i 3 -r 3 -jvmArgsAppend "-XX:+Use${gc}GC -Xlog:gc*:file=gclog-$gc-r$r.txt" -prof io.p2kv.bench.CpuProfiler -prof gc -rf json -rff gc-$gc-r$r.json > gc-$gc-r$r.txt 2>&1
done; done
