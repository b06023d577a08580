#!/bin/bash
cd /work/wt-exp2
J=jmh-benchmarks/target/benchmarks.jar
for round in 1 2; do
for v in slow alone min1; do
  case $v in
    alone) P="-Dp2kv.exp.takeAlone=true";;
    slow) P="-Dp2kv.exp.takeAlone=true -Dp2kv.exp.slowYieldNanos=20000";;
    min1) P="-Dp2kv.exp.takeAlone=true -Dp2kv.exp.minYields=1";;
  esac
  JVM_OPTS="-Xms1g -Xmx1g $P" PHASES="load a b d e" THREADS="8" ROUNDS=1 NAME=exp5-$v-r$round ycsb-binding/run-ycsb.sh > /work/exp/exp5-$v-r$round.log 2>&1
  java -jar $J 'PutBenchmark.syncPut$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend "$P" > /work/exp/jmh/exp5-$v-put16-r$round.txt 2>&1
done
done
