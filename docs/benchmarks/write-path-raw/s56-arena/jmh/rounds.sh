#!/bin/bash
# rounds A..B, alternating order: arena_block_size RocksDB's default (0: 1 MiB for a 64 MiB memtable, "off")
# against 8 MiB ("a8"), through the temporary property of /tmp/s56/exp-arena.patch (applies to p2kv and the
# RocksDB baselines alike: they share the engine factory's options)
cd /tmp/s56/wt
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
O=/tmp/s56/arena
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="off a8"; else order="a8 off"; fi
  for m in $order; do
    if [ $m = off ]; then A=0; else A=8388608; fi
    flock -x /tmp/p2kv-cpu.lock $J25 -jar jmh-benchmarks/target/benchmarks.jar 'VirtualThreadPutBenchmark.syncPuts$|BatchLimitBenchmark.writeBatchOf32$' \
      -t 1 -f 1 -wi 1 -w 2 -i 3 -r 2 -p vthreads=256 -p target=p2kv,rocksdb -p valueBytes=112 -p durability=WAL \
      -jvmArgsAppend "-Dp2kv.exp.arenaBlock=$A" -rf json -rff $O/r$r-$m.json > $O/r$r-$m.log 2>&1
    echo "round $r $m: $(grep -E '^(VirtualThreadPutBenchmark|BatchLimitBenchmark)\.[a-zA-Z0-9]+ ' $O/r$r-$m.log | awk '{printf "%s ", $(NF-3)}')"
  done
done
