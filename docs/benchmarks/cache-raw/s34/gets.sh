#!/bin/bash
# issue 15, stop 34: GetBenchmark uniform and Zipfian, 16 callers, cache 128 MiB and off, against RocksDB; 3 forks; 2 rounds, RocksDB first in round 2.
J=/work/exp/s34/mix/benchmarks.jar; O=/work/exp/s34/mix
P="-t 16 -p distribution=uniform,zipfian -f 3 -wi 1 -w 3 -i 3 -r 2"
flock -x /tmp/p2kv-cpu.lock java -jar $J 'GetBenchmark.p2kvGet$' $P -p shards=1 -p readPath=DIRECT -p separation=default -p cache=128,off -rf json -rff $O/get-p2kv-r1.json > $O/get-p2kv-r1.txt 2>&1
flock -x /tmp/p2kv-cpu.lock java -jar $J 'GetBenchmark.rocksGet$' $P -rf json -rff $O/get-rocksdb-r1.json > $O/get-rocksdb-r1.txt 2>&1
flock -x /tmp/p2kv-cpu.lock java -jar $J 'GetBenchmark.rocksGet$' $P -rf json -rff $O/get-rocksdb-r2.json > $O/get-rocksdb-r2.txt 2>&1
flock -x /tmp/p2kv-cpu.lock java -jar $J 'GetBenchmark.p2kvGet$' $P -p shards=1 -p readPath=DIRECT -p separation=default -p cache=128,off -rf json -rff $O/get-p2kv-r2.json > $O/get-p2kv-r2.txt 2>&1
echo done > $O/GETS-DONE
