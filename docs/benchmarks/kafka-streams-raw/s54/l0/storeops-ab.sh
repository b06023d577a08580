#!/bin/bash
# A/B of p2kv's L0 compaction trigger in the Kafka module's store: StoreOpsMeasure p2kv 12M/12M
cd /work/main; CP=$(cat /tmp/s54/exp/cp.txt)
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="def l0x8"; else order="l0x8 def"; fi
  for v in $order; do
    ex=""; [ $v = l0x8 ] && ex="-Dp2kv.exp.l0=8"
    rm -rf /tmp/s54/ops/$v
    echo "round $r $v $(flock -x /tmp/p2kv-cpu.lock java -Xmx1g $ex -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" io.p2kv.kafka.bench.StoreOpsMeasure p2kv 12000000 12000000 /tmp/s54/ops/$v 2>&1 | grep 'records/s')"
  done
done
rm -rf /tmp/s54/ops
