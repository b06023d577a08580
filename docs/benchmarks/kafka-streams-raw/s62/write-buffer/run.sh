#!/bin/bash
# p2kv alone, Kafka's record cache on (CACHE=0: off): the write buffer of stop 61 (old: rebuilt from
# its map and sorted at each write) against stop 62's (new: the batch built as the writes come,
# sorted in place), alternating, ROUNDS rounds. Classes: /tmp/s62/ab/{core,test,old/main,new/main}.
D=/tmp/s62/ab
TAG=${TAG:-cache}
for r in $(seq "${FROM:-1}" "${ROUNDS:-4}"); do
  if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    CP="$(cat $D/cp-base.txt):$D/test:$D/$v/main"
    flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -Dbench.modes=p2kv -cp "$CP" \
      io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 1-1 $D/work \
      -Xmx1g -Dbench.cache.bytes=${CACHE:-10485760} -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > $D/$TAG-r$r-$v.log 2>&1
    echo "$(date -u +%T) $TAG r$r $v $(grep -o 'processRecordsPerSec=[0-9]*\|processSecondHalfRecordsPerSec=[0-9]*\|processCpuUs.stream=[0-9.]*\|processCpuUs.p2kvWorker=[0-9.]*\|processCpuUs.total=[0-9.]*\|processCpuUs.gc=[0-9.]*\|processRssKb=[0-9]*\|processHeapCommittedKb=[0-9]*' $D/$TAG-r$r-$v.log | head -8 | tr '\n' ' ')" >> $D/summary.txt
  done
done
