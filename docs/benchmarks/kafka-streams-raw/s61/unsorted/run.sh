#!/bin/bash
# p2kv alone, Kafka's record cache on: the write buffer sorted (as shipped) against unsorted, alternating.
CP=$(cat /tmp/s61/us/cp.txt)
for r in 1 2 3 4; do
  if [ $((r % 2)) = 1 ]; then order="false true"; else order="true false"; fi
  for u in $order; do
    flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -Dbench.modes=p2kv -cp "$CP" \
      io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 1-1 /tmp/s61/us/work \
      -Xmx1g -Dbench.cache.bytes=${CACHE:-10485760} -Dp2kv.experiment.unsorted=$u -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > /tmp/s61/us/r$r-unsorted-$u.log 2>&1
    echo "$(date -u +%T) r$r unsorted=$u $(grep -o 'processRecordsPerSec=[0-9]*\|processSecondHalfRecordsPerSec=[0-9]*\|processCpuUs.stream=[0-9.]*\|processCpuUs.p2kvWorker=[0-9.]*\|processCpuUs.total=[0-9.]*\|processCpuUs.rocksdbBackground=[0-9.]*' /tmp/s61/us/r$r-unsorted-$u.log | head -6 | tr '\n' ' ')" >> /tmp/s61/us/summary.txt
  done
done
