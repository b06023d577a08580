#!/bin/bash
cd /work/wt-exp
for r in 1 2; do
  for v in base park; do
    if [ $v = park ]; then J="-Xms1g -Xmx1g -Dp2kv.exp.parkWait=true"; else J="-Xms1g -Xmx1g"; fi
    flock -x /tmp/p2kv-cpu.lock env JVM_OPTS="$J" PHASES="load a b d e" THREADS=8 ROUNDS=1 NAME=exp-$v-r$r ycsb-binding/run-ycsb.sh > /tmp/exp27/$v-r$r.log 2>&1
    echo "$(date +%T) $v r$r done" >> /tmp/exp27/chain1.log
  done
done
