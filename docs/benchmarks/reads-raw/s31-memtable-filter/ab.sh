#!/bin/bash
# ab.sh ROUNDS: memtable whole-key filter off (ratio 0) / on (0.02), interleaved, same jar.
# Each run: UpdateBenchmark (p2kv update and RocksDB locked get+put, uniform, 1 shard) and
# MixedBenchmark (p2kv and RocksDB, 50/50 and 95/5 Zipfian, 1 shard, no cache), 16 threads.
J=/work/exp/s31/mt/new.jar
OUT=/work/exp/s31/mt/raw
for r in $(seq ${START:-1} $1); do
  for v in 0 0.02; do
    tag=mt$v-r$r
    flock -x /tmp/p2kv-cpu.lock java -jar $J 'UpdateBenchmark.(p2kvUpdate|rocksdbLocked)$' -t 16 -p shards=1 -p distribution=uniform \
      -f 1 -wi 2 -w 3 -i 3 -r 3 -jvmArgsAppend "-Dp2kv.exp.mtbloom=$v" -prof io.p2kv.bench.CpuProfiler -rf json -rff $OUT/upd-$tag.json > $OUT/upd-$tag.log 2>&1
    flock -x /tmp/p2kv-cpu.lock java -jar $J 'MixedBenchmark.(p2kv|rocksdb)$' -t 16 -p shards=1 -p readPercent=50,95 \
      -f 1 -wi 2 -w 3 -i 3 -r 3 -jvmArgsAppend "-Dp2kv.exp.mtbloom=$v" -prof io.p2kv.bench.CpuProfiler -rf json -rff $OUT/mix-$tag.json > $OUT/mix-$tag.log 2>&1
  done
done
echo done
