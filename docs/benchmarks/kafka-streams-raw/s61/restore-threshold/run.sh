#!/bin/bash
# p2kv alone, restore tail: the per-task load threshold 16 MiB (default) against smaller ones, alternating.
CP=$(cat /tmp/s61/rt/cp.txt)
for r in 1 2 3 4; do
  # 16 MiB first in every round; 1 MiB and 4 MiB swap places from round to round
  if [ $((r % 2)) = 1 ]; then order="16777216 1048576 4194304"; else order="16777216 4194304 1048576"; fi
  for t in $order; do
    flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -Dbench.modes=p2kv -cp "$CP" \
      io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 1-1 /tmp/s61/rt/work \
      -Xmx1g -Dp2kv.experiment.restoreBufferBytes=$t -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > /tmp/s61/rt/r$r-$t.log 2>&1
    echo "$(date -u +%T) r$r t=$t $(grep -o 'restoreSeconds=[0-9.]* restoreRecordsPerSec=[0-9]* restoreEndSeconds=[0-9.]*' /tmp/s61/rt/r$r-$t.log) $(grep -o 'processRecordsPerSec=[0-9]*' /tmp/s61/rt/r$r-$t.log | head -1)" >> /tmp/s61/rt/summary.txt
  done
done
