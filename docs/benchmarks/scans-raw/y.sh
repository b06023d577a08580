#!/bin/bash
# usage: y.sh NAME THREADS [REBUILD]
cd /work/wt-scans
flock -x /tmp/p2kv-cpu.lock env PHASES="${PHASES:-load c e es}" THREADS=$2 ROUNDS=1 NAME=$1 REBUILD=${3:-0} ycsb-binding/run-ycsb.sh > /tmp/scans/$1.log 2>&1
