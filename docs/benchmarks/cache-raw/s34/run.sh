#!/bin/bash
# issue 15, stop 34: MixedBenchmark 95/5 and 50/50, cache off and 128 MiB, against RocksDB; 3 forks, exclusive CPU lock.
J=/work/exp/s34/mix/benchmarks.jar; O=/work/exp/s34/mix
flock -x /tmp/p2kv-cpu.lock java -jar $J 'MixedBenchmark.(p2kv|rocksdb)$' -t 16 -p readPercent=50,95 -p shards=1 -p cache=off,128 \
  -f 3 -wi 1 -w 3 -i 3 -r 2 -rf json -rff $O/mixed.json > $O/mixed.txt 2>&1
