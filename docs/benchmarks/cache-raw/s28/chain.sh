#!/bin/bash
# issue 15 measurements, stop 28 (branch cache15). Each JMH run under the exclusive CPU lock.
J=/tmp/c15/final.jar; O=/tmp/c15/r3; mkdir -p $O
L="flock -x /tmp/p2kv-cpu.lock"
$L java -jar $J 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p distribution=uniform,zipfian -p shards=1 -p readPath=DIRECT \
  -p separation=default -p cache=off,64,128 -f 3 -wi 1 -w 3 -i 3 -r 2 -rf json -rff $O/get.json > $O/get.txt 2>&1
$L java -jar $J 'MixedBenchmark.(p2kv|rocksdb)$' -t 16 -p readPercent=50,95 -p shards=1 -p cache=off,64,128 \
  -f 3 -wi 1 -w 3 -i 3 -r 2 -rf json -rff $O/mixed.json > $O/mixed.txt 2>&1
$L java -jar $J 'PutBenchmark.(syncPut|asyncPut)$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL \
  -p cache=off,64 -f 3 -wi 1 -w 3 -i 3 -r 2 -rf json -rff $O/put.json > $O/put.txt 2>&1
echo done > $O/DONE
