#!/bin/bash
# issue 15/16, stop 28: YCSB at 32 threads, p2kv defaults with and without the value cache (128 MiB of the 512 MiB budget)
cd /work/wt-cache15
BASE="p2kv.shards=1 p2kv.readpath=direct p2kv.maxbatch=32 p2kv.sync=false p2kv.memorybudgetmb=512"
for r in 1 2 3; do
  flock -x /tmp/p2kv-cpu.lock env P2KV_PROPS="$BASE p2kv.cachemb=128" PHASES="load b c d e" THREADS=32 ROUNDS=1 NAME=s28-cache128-t32-r$r ycsb-binding/run-ycsb.sh > /tmp/c15/y2-cache-r$r.log 2>&1
  flock -x /tmp/p2kv-cpu.lock env P2KV_PROPS="$BASE" PHASES="load b c d e" THREADS=32 ROUNDS=1 NAME=s28-nocache-t32-r$r ycsb-binding/run-ycsb.sh > /tmp/c15/y2-nocache-r$r.log 2>&1
done
echo done > /tmp/c15/YDONE2
