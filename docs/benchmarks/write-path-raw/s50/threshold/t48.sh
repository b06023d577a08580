#!/bin/bash
# usage: t48.sh ROUND... : the change with a hand-off threshold of 8 (vt.jar) against 4 (vt4.jar), vthreads 4,8,32,256; odd rounds 8 first
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in "$@"; do
  if [ $((r % 2)) = 1 ]; then order="vt vt4"; else order="vt4 vt"; fi
  for v in $order; do
    flock -x /tmp/p2kv-cpu.lock timeout 400 $J -jar /tmp/s50/$v.jar VirtualThreadPutBenchmark -p vthreads=4,8,32,256 -p target=p2kv -f 1 -wi 1 -w 2 -i 3 -r 2 > t-$v-r$r.log 2>&1
    echo "round $r $v: $(grep -E 'syncPuts +128' t-$v-r$r.log | awk '{printf "%s=%.0fK ", $4, $(NF-3)/1000}') $(grep 'mean write batch' t-$v-r$r.log | awk '{printf "b=%s ", $6}')"
  done
done
