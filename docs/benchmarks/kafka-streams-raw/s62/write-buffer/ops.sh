#!/bin/bash
# The store alone (StoreOpsMeasure, no broker): stop 61's write buffer (old) against stop 62's (new),
# alternating, for MODE (put or update), ROUNDS rounds, 2 M records over 1 M keys.
D=/tmp/s62/ab
MODE=${MODE:-put}
for r in $(seq 1 "${ROUNDS:-4}"); do
  if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    rm -rf $D/ops-work
    CP="$(cat $D/cp-base.txt):$D/test:$D/$v/main"
    flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" \
      io.p2kv.kafka.bench.StoreOpsMeasure p2kv 2000000 1000000 $D/ops-work $MODE > $D/ops-$MODE-r$r-$v.log 2>&1
    echo "$(date -u +%T) $MODE r$r $v $(grep -h "records/s\|^per record" $D/ops-$MODE-r$r-$v.log | tr "\n" " ")" >> $D/ops-summary.txt
  done
done
