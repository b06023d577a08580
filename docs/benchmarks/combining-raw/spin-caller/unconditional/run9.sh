#!/bin/bash
# the committed measurement: wt-wpath (fd8fda1) vs main build (wt-old)
set -x
cd /work/wt-wpath
PHASES="load a b c d e f" THREADS="8 32" ROUNDS=3 NAME=spin-128 ycsb-binding/run-ycsb.sh > /work/exp/run9-ycsb.log 2>&1
mkdir -p /work/exp/jmh9
for round in 1 2; do
for tree in wt-wpath wt-old; do
  cd /work/$tree
  java -jar jmh-benchmarks/target/benchmarks.jar 'PutBenchmark.syncPut$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 > /work/exp/jmh9/$tree-put16-r$round.txt 2>&1
  java -jar jmh-benchmarks/target/benchmarks.jar 'PutBenchmark.syncPut$' -t 1 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 > /work/exp/jmh9/$tree-put1-r$round.txt 2>&1
  java -jar jmh-benchmarks/target/benchmarks.jar 'MixedBenchmark' -t 16 -p readPercent=95,50 -p shards=1 -f 1 -wi 1 -w 3 -i 3 -r 2 > /work/exp/jmh9/$tree-mixed-r$round.txt 2>&1
done
done
