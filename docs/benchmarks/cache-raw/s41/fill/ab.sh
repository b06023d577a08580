#!/bin/bash
# Value cache fill rate decided from the entry count (fill.jar) or from Caffeine's weightedSize(), which
# takes the eviction lock (base.jar); 16 callers, 1 M keys, cache 64 MiB; rounds in rotating order.
cd /tmp/s41/fill
get() { # jar tag round caches
  flock -x /tmp/p2kv-cpu.lock java -jar $1.jar 'GetBenchmark.p2kvGet$' -t 16 -p keys=1000000 -p distribution=uniform -p shards=1 \
    -p readPath=DIRECT -p separation=default -p cache=$4 -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff get-$2-r$3.json > get-$2-r$3.txt 2>&1
}
mix() { # jar tag round
  flock -x /tmp/p2kv-cpu.lock java -jar $1.jar 'MixedBenchmark.p2kv' -t 16 -p readPercent=95,50 -p shards=1 -p cache=64 \
    -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff mix-$2-r$3.json > mix-$2-r$3.txt 2>&1
}
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="base fill"; else order="fill base"; fi
  for j in $order; do
    if [ $j = base ]; then get base base $r off,64; else get fill fill $r 64; fi
    mix $j $j $r
  done
  echo "round $r done $(date +%T)"
done
