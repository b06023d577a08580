#!/bin/bash
# DurableWaitProbe, 16 threads, 64 MiB budget, 12 s warm-up, 15 s measured; yieldWaitNanos A and B alternating, ROUNDS rounds
ROUNDS=$1; A=$2; B=$3; THREADS=${4:-16}
CP="/work/main/core/target/classes:$(cat /tmp/s58/core-cp.txt):/tmp/s58/probe"
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) -eq 1 ]; then order="$A $B"; else order="$B $A"; fi
  for y in $order; do
    d=/tmp/s58/wait-db-$y; rm -rf $d
    flock -x /tmp/p2kv-cpu.lock java -Xmx1g -cp "$CP" DurableWaitProbe $THREADS 12 15 $y 67108864 $d 2>&1 | grep "puts/s"
    rm -rf $d
  done
done
