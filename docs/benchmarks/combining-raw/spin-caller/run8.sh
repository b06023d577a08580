#!/bin/bash
cd /work/wt-exp2
J=jmh-benchmarks/target/benchmarks.jar
P="-Dp2kv.exp.takeAlone=true -Dp2kv.exp.spinCallerNanos=30000 -Dp2kv.exp.oneSpinner=true"
JVM_OPTS="-Xms1g -Xmx1g $P" PHASES="load a d" THREADS="8 32" ROUNDS=1 NAME=exp8 ycsb-binding/run-ycsb.sh > /work/exp/exp8.log 2>&1
java -jar $J 'PutBenchmark.syncPut$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend "$P" > /work/exp/jmh/exp8-put16.txt 2>&1
java -jar $J 'PutBenchmark.syncPut$' -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 > /work/exp/jmh/exp8-base-put16.txt 2>&1
