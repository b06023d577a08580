#!/bin/bash
# StoreOpsMeasure at 12M updates over 12M keys, keys made per record (stop 57): p2kv vs Kafka's RocksDB stores, order alternating
CP=$(cat /tmp/s57/exp/cp.txt)
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="rocksdb p2kv"; else order="p2kv rocksdb"; fi
  for v in $order; do
    rm -rf /tmp/s57/ops/$v
    out=$(flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" io.p2kv.kafka.bench.StoreOpsMeasure $v 12000000 12000000 /tmp/s57/ops/$v 2>&1)
    echo "round $r $(echo "$out" | grep 'records/s')"
    echo "round $r $v $(echo "$out" | grep 'per record')"
  done
done
rm -rf /tmp/s57/ops
