#!/bin/bash
# alternating: new, old, new, old for syncPut -t 16 and -t 1, plus RocksDbPutBenchmark -t 16 once
for round in 1; do
for tree in main wt-old93; do
  cd /work/$tree
  java -jar jmh-benchmarks/target/benchmarks.jar 'PutBenchmark.syncPut$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff /tmp/jt/$tree-t16-r$round.json > /tmp/jt/$tree-t16-r$round.txt 2>&1
  java -jar jmh-benchmarks/target/benchmarks.jar 'PutBenchmark.syncPut$' -t 1 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff /tmp/jt/$tree-t1-r$round.json > /tmp/jt/$tree-t1-r$round.txt 2>&1
done
done
