#!/bin/bash
# Caffeine records one cache lookup in N (recency, frequency), the rest are quiet lookups: N=1 (main) against N=16.
# 16 callers, 1 M keys, 1 shard, cache 64 MiB, long warm-up so the cache is warm; rounds in alternating order.
J=/tmp/s42/hits.jar
IT="-f 1 -wi 4 -w 4 -i 3 -r 3"
run() { # name N benchmark args...
  local name=$1 n=$2; shift 2
  flock -x /tmp/p2kv-cpu.lock java -jar $J "$@" -t 16 -p shards=1 -p cache=64 $IT -jvmArgsAppend "-Dp2kv.exp.recordOneIn=$n" \
    -prof io.p2kv.bench.CpuProfiler -rf json -rff $name.json > $name.txt 2>&1
}
for r in 1 2; do
  if [ $r = 1 ]; then order="1 16"; else order="16 1"; fi
  for n in $order; do
    run mix-n$n-r$r $n 'MixedBenchmark.p2kv' -p readPercent=95
    run zipf-n$n-r$r $n 'GetBenchmark.p2kvGet' -p distribution=zipfian -p readPath=DIRECT -p separation=default
    run unif-n$n-r$r $n 'GetBenchmark.p2kvGet' -p distribution=uniform -p readPath=DIRECT -p separation=default
    echo "round $r n=$n done $(date +%T)"
  done
done
