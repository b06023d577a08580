#!/bin/bash
# A/B of the statistics change: old jar (bench.jar, 08e9dbe) vs new (bench-new.jar), with the plain-RocksDB baselines, rotating.
J="java -jar"
IT="-f 1 -wi 1 -w 2 -i 3 -r 2"
for round in 1 2 3; do
  for jar in old new; do
    f=/tmp/s46/bench.jar; [ $jar = new ] && f=/tmp/s46/bench-new.jar
    flock -x /tmp/p2kv-cpu.lock $J $f 'PutBenchmark.syncPut$' -t 1 -p shards=1 -p valueBytes=112 -p durability=WAL $IT 2>&1 | grep -E "^PutBenchmark" | sed "s/^/r$round $jar /"
    flock -x /tmp/p2kv-cpu.lock $J $f 'GetBenchmark.p2kvGet$' -t 16 -p keys=1000000 -p shards=1 -p readPath=DIRECT -p distribution=uniform -p separation=default $IT 2>&1 | grep -E "^GetBenchmark" | sed "s/^/r$round $jar /"
  done
  flock -x /tmp/p2kv-cpu.lock $J /tmp/s46/bench.jar RocksDbPutBenchmark -t 1 -p baseline=rocksdb -p valueBytes=112 -p durability=WAL $IT 2>&1 | grep -E "^RocksDb" | sed "s/^/r$round rocks /"
  flock -x /tmp/p2kv-cpu.lock $J /tmp/s46/bench.jar 'GetBenchmark.rocksGet$' -t 16 -p keys=1000000 -p distribution=uniform $IT 2>&1 | grep -E "^GetBenchmark" | sed "s/^/r$round rocks /"
done
