#!/bin/bash
# The value cache's cost to uniform async writes (issue 15's 3 % bound), again with longer iterations and more rounds:
# PutBenchmark asyncPut, 16 callers, 1 shard, WAL, 112-byte values, cache off and 64 MiB; 6 rounds, alternating order.
# Jar built from 5f4562b (library code as f472df9 and 3413530).
JAR=/tmp/s44/bench.jar
cd /tmp/s44/puts
for r in 1 2 3 4 5 6; do
  if [ $((r % 2)) = 1 ]; then order="off 64"; else order="64 off"; fi
  for c in $order; do
    flock -x /tmp/p2kv-cpu.lock java -jar $JAR 'PutBenchmark.asyncPut$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -p cache=$c \
      -f 1 -wi 2 -w 3 -i 5 -r 3 -prof io.p2kv.bench.CpuProfiler -rf json -rff put-$c-r$r.json > put-$c-r$r.txt 2>&1
    echo "round $r cache=$c $(grep -A0 '^PutBenchmark.asyncPut ' put-$c-r$r.txt | awk '{print $(NF-3), $(NF-2), $(NF-1)}') $(date +%T)"
  done
done
