#!/usr/bin/env bash
# Cross-shard and single-shard batches, 1 and 16 callers, on the jars of the work trees given as
# arguments (each built with: mvn -B -q -o -DskipTests -pl jmh-benchmarks -am package). Run under
# the exclusive CPU lock: flock -x /tmp/p2kv-cpu.lock ./ab.sh TREE...
for t in "$@"; do
 for th in 1 16; do
  java -jar $t/jmh-benchmarks/target/benchmarks.jar 'BatchBenchmark.(crossShardBatch|singleShardBatch)$' -t $th -p shards=4 -p ops=2 -p durability=WAL -f 1 -wi 1 -w 2 -i 2 -r 2 2>&1 | grep -E '^BatchBenchmark' | sed "s|^|$t t=$th |"
 done
done
