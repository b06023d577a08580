#!/usr/bin/env bash
# (Ran from a detached work tree at /tmp/bis-w and a scratch directory; the paths are as they were.)
# git bisect run step: good if cross-shard batches of 2 over 4 shards, 16 callers, exceed 8 K/s.
cd /tmp/bis-w
nice -n 5 mvn -B -q -o -DskipTests -pl jmh-benchmarks -am package > /tmp/bis-build.log 2>&1 || exit 125
s=$(flock -x /tmp/p2kv-cpu.lock java -jar jmh-benchmarks/target/benchmarks.jar 'BatchBenchmark.crossShardBatch$' -t 16 -p shards=4 -p ops=2 -p durability=WAL -f 1 -wi 1 -w 2 -i 2 -r 2 2>&1 | grep -E '^BatchBenchmark' | awk '{print $(NF-1)}')
echo "$(git rev-parse --short HEAD) $s" >> /work/exp/s32/bisect.log
[ -z "$s" ] && exit 125
awk -v s="$s" 'BEGIN { exit (s > 8000) ? 0 : 1 }'
