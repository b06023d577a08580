#!/bin/bash
# A/B of the Kafka module's level-0 trigger: StoreOpsMeasure 12M updates over 12M keys.
# Variants: l8 (the committed 8), l12 and l16 (slowdown trigger 40, stop 56), kafka (Kafka's RocksDB stores).
CP=$(cat /tmp/s57/exp/cp.txt)
for r in $(seq $1 $2); do
  case $((r % 3)) in 1) order="l8 l12 l16 kafka";; 2) order="l16 kafka l8 l12";; 0) order="kafka l12 l8 l16";; esac
  for v in $order; do
    ex=""; kind=p2kv
    case $v in l12) ex="-Dp2kv.exp.l0=12 -Dp2kv.exp.slow=40";; l16) ex="-Dp2kv.exp.l0=16 -Dp2kv.exp.slow=40";; kafka) kind=rocksdb;; esac
    rm -rf /tmp/s57/ops/$v
    echo "round $r $v $(flock -x /tmp/p2kv-cpu.lock java -Xmx1g $ex -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" io.p2kv.kafka.bench.StoreOpsMeasure $kind 12000000 12000000 /tmp/s57/ops/$v 2>&1 | grep 'records/s')"
  done
done
rm -rf /tmp/s57/ops
