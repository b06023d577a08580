#!/bin/bash
cd /work/wt-wpath
for v in base alone spin; do
  case $v in base) J="-Xms1g -Xmx1g";; alone) J="-Xms1g -Xmx1g -Dp2kv.exp.takeAlone=true";; spin) J="-Xms1g -Xmx1g -Dp2kv.exp.takeAlone=true -Dp2kv.exp.spinNanos=20000";; esac
  JVM_OPTS="$J" PHASES="load b d" THREADS=8 ROUNDS=1 NAME=exp-$v ycsb-binding/run-ycsb.sh > /work/exp/$v.log 2>&1
done
