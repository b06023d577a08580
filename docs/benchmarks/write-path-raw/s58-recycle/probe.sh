#!/bin/bash
# alternating default/off, ROUNDS rounds, THREADS threads; env PROBE (class, default P2kvDefaultRecycleProbe), env BUDGET (bytes, default 64 MiB) and WARM (s, default 12)
BUDGET=${BUDGET:-67108864}; WARM=${WARM:-12}
ROUNDS=$1; THREADS=$2
CP="/work/main/core/target/classes:$(cat /tmp/s58/core-cp.txt):/tmp/s58/probe"
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) -eq 1 ]; then order="off default"; else order="default off"; fi
  for m in $order; do
    d=/tmp/s58/probe-db-$m; rm -rf $d
    flock -x /tmp/p2kv-cpu.lock java -Xmx1g -cp "$CP" ${PROBE:-P2kvDefaultRecycleProbe} $THREADS $WARM 15 $m $BUDGET $d 2>&1 | grep -v SLF4J
    rm -rf $d
  done
done
