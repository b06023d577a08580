#!/bin/bash
# StoreOpsMeasure p2kv at 12M updates over 12M keys: the store's WAL on (WAL, committed) against off (NO_WAL), order alternating (stop 59)
CP=$(cat /tmp/s59/cp.txt)
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="WAL NO_WAL"; else order="NO_WAL WAL"; fi
  for d in $order; do
    rm -rf /tmp/s59/ops
    out=$(flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dp2kv.exp.durability=$d -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" io.p2kv.kafka.bench.StoreOpsMeasure p2kv 12000000 12000000 /tmp/s59/ops 2>&1)
    echo "round $r $d $(echo "$out" | grep 'records/s')"
    echo "round $r $d $(echo "$out" | grep 'per record')"
  done
done
rm -rf /tmp/s59/ops
