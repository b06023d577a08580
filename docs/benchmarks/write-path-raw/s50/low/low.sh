#!/bin/bash
# usage: low.sh ROUND... : VirtualThreadPutBenchmark p2kv at 1, 4, 8, 32 virtual threads, main's jar against the change's (vtf.jar); odd rounds main first
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in "$@"; do
  if [ $((r % 2)) = 1 ]; then order="main vtf"; else order="vtf main"; fi
  for v in $order; do
    flock -x /tmp/p2kv-cpu.lock $J -jar /tmp/s50/$v.jar 'VirtualThreadPutBenchmark.syncPuts$' -p vthreads=1,4,8,32 -p target=p2kv -f 1 -wi 1 -w 2 -i 3 -r 2 > low-$v-r$r.log 2>&1
    echo "round $r $v: $(grep -E '^VirtualThreadPutBenchmark.syncPuts ' low-$v-r$r.log | awk '{printf "%s=%.0fK ", $4, $(NF-2)/1000}')"
  done
done
