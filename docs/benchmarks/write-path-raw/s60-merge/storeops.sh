#!/bin/bash
# StoreOpsMeasure at 12M updates over 12M keys: p2kv main (458bcb5) vs stop 60's merged memtables, and Kafka's stores, order rotating
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="main new rocksdb"; else order="new main rocksdb"; fi
  for v in $order; do
    rm -rf /tmp/s60/ops
    if [ $v = rocksdb ]; then CP=$(cat /tmp/s60/ks-main/cp.txt); store=rocksdb; else CP=$(cat /tmp/s60/ks-$v/cp.txt); store=p2kv; fi
    out=$(flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" io.p2kv.kafka.bench.StoreOpsMeasure $store 12000000 12000000 /tmp/s60/ops 2>&1)
    echo "round $r $v $(echo "$out" | grep 'records/s')"
    echo "round $r $v $(echo "$out" | grep 'per record')"
  done
done
rm -rf /tmp/s60/ops
