#!/bin/bash
mkdir -p /work/exp/jmh12
for round in 1 2; do
for tree in wt-wpath wt-old; do
  cd /work/$tree
  java -jar jmh-benchmarks/target/benchmarks.jar 'PutBenchmark.syncPut$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 > /work/exp/jmh12/$tree-put16-r$round.txt 2>&1
  java -jar jmh-benchmarks/target/benchmarks.jar 'PutBenchmark.syncPut$' -t 1 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 > /work/exp/jmh12/$tree-put1-r$round.txt 2>&1
  java -jar jmh-benchmarks/target/benchmarks.jar 'MixedBenchmark' -t 16 -p readPercent=95,50 -p shards=1 -f 1 -wi 1 -w 3 -i 3 -r 2 > /work/exp/jmh12/$tree-mixed-r$round.txt 2>&1
  PHASES="load b d e" THREADS="8" ROUNDS=1 NAME=adapt12-$tree-r$round ycsb-binding/run-ycsb.sh > /work/exp/adapt12-$tree-r$round.log 2>&1
done
done
