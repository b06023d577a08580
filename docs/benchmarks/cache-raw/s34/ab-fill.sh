#!/bin/bash
# issue 15, stop 34: the warming check without Caffeine's eviction lock (benchmarks-new.jar) against main before it
# (benchmarks.jar, 1f4b5be + the default-shards commit) and RocksDB: GetBenchmark uniform and Zipfian, MixedBenchmark 95/5;
# 16 callers, 2 forks each, 2 rounds in rotating order, each JMH command under the exclusive CPU lock.
O=/work/exp/s34/mix/abfill; mkdir -p $O
G="-t 16 -p distribution=uniform,zipfian -f 2 -wi 1 -w 3 -i 3 -r 2"
M="-t 16 -p readPercent=95 -f 2 -wi 1 -w 3 -i 3 -r 2"
L="flock -x /tmp/p2kv-cpu.lock"
new() { $L java -jar /work/exp/s34/mix/benchmarks-new.jar 'GetBenchmark.p2kvGet$' $G -p shards=1 -p readPath=DIRECT -p separation=default -p cache=128,off -rf json -rff $O/get-new-r$1.json > $O/get-new-r$1.txt 2>&1
        $L java -jar /work/exp/s34/mix/benchmarks-new.jar 'MixedBenchmark.p2kv$' $M -p shards=1 -p cache=128 -rf json -rff $O/mix-new-r$1.json > $O/mix-new-r$1.txt 2>&1; }
old() { $L java -jar /work/exp/s34/mix/benchmarks.jar 'GetBenchmark.p2kvGet$' $G -p shards=1 -p readPath=DIRECT -p separation=default -p cache=128 -rf json -rff $O/get-old-r$1.json > $O/get-old-r$1.txt 2>&1
        $L java -jar /work/exp/s34/mix/benchmarks.jar 'MixedBenchmark.p2kv$' $M -p shards=1 -p cache=128 -rf json -rff $O/mix-old-r$1.json > $O/mix-old-r$1.txt 2>&1; }
rocks() { $L java -jar /work/exp/s34/mix/benchmarks-new.jar 'GetBenchmark.rocksGet$' $G -rf json -rff $O/get-rocksdb-r$1.json > $O/get-rocksdb-r$1.txt 2>&1
          $L java -jar /work/exp/s34/mix/benchmarks-new.jar 'MixedBenchmark.rocksdb$' $M -rf json -rff $O/mix-rocksdb-r$1.json > $O/mix-rocksdb-r$1.txt 2>&1; }
new 1; old 1; rocks 1
rocks 2; new 2; old 2
echo done > $O/DONE
