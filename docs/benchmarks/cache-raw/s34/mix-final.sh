#!/bin/bash
# MixedBenchmark 95/5 and 50/50 on the committed warming check (983c1ba): p2kv cache 128 MiB and off, RocksDB, same JMH command, 3 forks.
O=/work/exp/s34/mix/abfill
flock -x /tmp/p2kv-cpu.lock java -jar /work/exp/s34/mix/benchmarks-final.jar 'MixedBenchmark.(p2kv|rocksdb)$' -t 16 -p readPercent=50,95 -p shards=1 -p cache=128,off \
  -f 3 -wi 1 -w 3 -i 3 -r 2 -rf json -rff $O/mix-final-r3.json > $O/mix-final-r3.txt 2>&1
echo done > $O/FINALDONE
