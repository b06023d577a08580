#!/bin/bash
# usage: yb.sh NAME THREADS : run-ycsb.sh of the before tree (8ada81e) under the exclusive lock
cd /tmp/scans/src-before
flock -x /tmp/p2kv-cpu.lock env PHASES="${PHASES:-load c e es}" THREADS=$2 ROUNDS=1 NAME=$1 REBUILD=0 ycsb-binding/run-ycsb.sh > /tmp/scans/$1.log 2>&1
cp -r docs/benchmarks/ycsb-raw-$1 /tmp/scans/
