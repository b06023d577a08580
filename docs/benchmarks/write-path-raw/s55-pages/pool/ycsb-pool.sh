#!/bin/bash
# YCSB LOAD, 8 threads, p2kv against the RocksDB binding, host pool off / on, order off on on off
cd /work/main
flock -x /tmp/p2kv-cpu.lock bash -c '
set -e
n=0
for m in off on on off; do
  n=$((n+1))
  if [ $m = on ]; then echo 300 > /proc/sys/vm/nr_hugepages; else echo 0 > /proc/sys/vm/nr_hugepages; fi
  R=0; [ $n = 1 ] && R=1
  REBUILD=$R PHASES=load THREADS=8 ROUNDS=1 NAME=s55-pool-$m-$n ycsb-binding/run-ycsb.sh > /tmp/s55/ycsb-$m-$n.txt 2>&1 || echo "run $n failed"
  echo 0 > /proc/sys/vm/nr_hugepages
  echo "run $n ($m)"; grep -iE "load.*x|ratio" docs/benchmarks/YCSB-s55-pool-$m-$n.md | head -5
done'
