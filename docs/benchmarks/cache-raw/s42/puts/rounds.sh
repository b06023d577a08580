#!/bin/bash
# The value cache's cost to uniform writes (issue 15's 3 % bound): PutBenchmark sync and async puts of random keys, 16 callers,
# 1 shard, WAL, 112-byte values, cache off and 64 MiB, the suite's iteration settings; 3 rounds, alternating order. Jar of 664044c.
JAR=/tmp/s42/new2.jar
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="off 64"; else order="64 off"; fi
  for c in $order; do
    flock -x /tmp/p2kv-cpu.lock java -jar $JAR 'PutBenchmark.(syncPut|asyncPut)$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -p cache=$c \
      -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff put-$c-r$r.json > put-$c-r$r.txt 2>&1
  done
  echo "round $r $(date +%T)"
done
