#!/bin/bash
cd /work/wt-wpath
for round in 1 2; do
for v in alone base; do
  if [ $v = alone ]; then J="-Xms1g -Xmx1g -Dp2kv.exp.takeAlone=true"; else J="-Xms1g -Xmx1g"; fi
  JVM_OPTS="$J" PHASES="load a b d e" THREADS="8 32" ROUNDS=1 NAME=exp4-$v-r$round ycsb-binding/run-ycsb.sh > /work/exp/exp4-$v-r$round.log 2>&1
done
done
