#!/bin/bash
# YCSB record-cost experiment: tag recordBytes threads
cd /work/wt-vsexp
flock -x /tmp/p2kv-cpu.lock env JVM_OPTS="-Xms1g -Xmx1g -Dp2kv.exp.recordBytes=$2" PHASES="${PH:-load a c}" THREADS=$3 ROUNDS=1 NAME=s29-$1 ycsb-binding/run-ycsb.sh > /tmp/s29/y-$1.log 2>&1
mv docs/benchmarks/YCSB-s29-$1.md docs/benchmarks/ycsb-raw-s29-$1 /tmp/s29/
