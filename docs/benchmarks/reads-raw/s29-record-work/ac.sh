#!/bin/bash
cd /work/main
for r in 1 2; do
for cfg in def none; do
  if [ $cfg = none ]; then EXTRA=" p2kv.valueseparation=none"; else EXTRA=""; fi
  flock -x /tmp/p2kv-cpu.lock env P2KV_PROPS="p2kv.shards=1 p2kv.readpath=direct p2kv.maxbatch=32 p2kv.sync=false p2kv.memorybudgetmb=512$EXTRA" PHASES="load a c" THREADS=8 ROUNDS=1 NAME=s29-$cfg-$r ycsb-binding/run-ycsb.sh > /tmp/s29/$cfg-$r.log 2>&1
  mv docs/benchmarks/YCSB-s29-$cfg-$r.md docs/benchmarks/ycsb-raw-s29-$cfg-$r /tmp/s29/
done
done
