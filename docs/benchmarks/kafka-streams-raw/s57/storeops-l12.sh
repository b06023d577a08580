#!/bin/bash
# Level-0 trigger 8 (committed) vs 12 (slowdown 40, stop 56), StoreOpsMeasure p2kv 12M/12M, keys made per record; order alternating
CP=$(cat /tmp/s57/exp/cp.txt)
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="l8 l12"; else order="l12 l8"; fi
  for v in $order; do
    ex=""; [ $v = l12 ] && ex="-Dp2kv.exp.l0=12 -Dp2kv.exp.slow=40"
    rm -rf /tmp/s57/ops/$v
    out=$(flock -x /tmp/p2kv-cpu.lock java -Xmx1g $ex -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" io.p2kv.kafka.bench.StoreOpsMeasure p2kv 12000000 12000000 /tmp/s57/ops/$v 2>&1)
    echo "round $r $v $(echo "$out" | grep 'records/s')"
    echo "round $r $v $(echo "$out" | grep 'per record')"
  done
done
rm -rf /tmp/s57/ops
