#!/bin/bash
# issue 15, stop 37: YCSB at 32 threads, the full sequence, p2kv with the value cache (128 MiB of 512; open warms the hottest eighth of the keys saved at the last close) and without
cd /work/main
BASE="p2kv.shards=1 p2kv.readpath=direct p2kv.maxbatch=32 p2kv.sync=false p2kv.memorybudgetmb=512"
for r in 1 2 3; do
  flock -x /tmp/p2kv-cpu.lock env P2KV_PROPS="$BASE p2kv.cachemb=128" PHASES="load a b c d e f" THREADS=32 ROUNDS=1 NAME=s37-warmhot128-t32-r$r ycsb-binding/run-ycsb.sh > /tmp/c15w/warmhot-r$r.log 2>&1
  if [ $r = 3 ]; then
  flock -x /tmp/p2kv-cpu.lock env P2KV_PROPS="$BASE" PHASES="load a b c d e f" THREADS=32 ROUNDS=1 NAME=s37-nocache-t32-r$r ycsb-binding/run-ycsb.sh > /tmp/c15w/nocache-r$r.log 2>&1
  fi
done
echo done > /tmp/c15w/DONE3
