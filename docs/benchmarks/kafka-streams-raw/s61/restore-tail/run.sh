#!/bin/bash
CP=$(cat /tmp/s61/rt/cp.txt)
java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -Dbench.modes=p2kv -cp "$CP" \
  io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 1-1 /tmp/s61/tail/work \
  -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > /tmp/s61/tail/round.log 2>&1 &
D=$!
while kill -0 $D 2>/dev/null; do
  P=$(pgrep -f "StreamsBenchmark child restore" | head -1)
  if [ -n "$P" ]; then
    i=0
    while kill -0 $P 2>/dev/null; do
      jstack $P > /tmp/s61/tail/js-$(printf %03d $i)-$(date +%s.%N | cut -c1-14).txt 2>/dev/null
      i=$((i+1)); sleep 0.15
    done
  fi
  sleep 0.2
done
