#!/bin/bash
# usage: run.sh TARGET NICE TAG : VirtualThreadPutBenchmark (256 virtual threads, change's jar) with RocksDB's background
# threads (rocksdb:low, rocksdb:high) of the JMH fork reniced to NICE while it runs (0 = untouched)
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
$J -jar /tmp/s50/vtf.jar 'VirtualThreadPutBenchmark.syncPuts$' -p vthreads=256 -p target=$1 -f 1 -wi 1 -w 2 -i 3 -r 2 > $3.log 2>&1 &
M=$!
while kill -0 $M 2>/dev/null; do
  P=$(pgrep -f 'java.*ForkedMain' | head -1)
  if [ -n "$P" ] && [ "$2" != 0 ]; then
    for t in /proc/$P/task/*; do
      c=$(cat $t/comm 2>/dev/null)
      case "$c" in rocksdb:*) renice -n $2 -p $(basename $t) >/dev/null 2>&1;; esac
    done
  fi
  sleep 0.3
done
echo "$3 $(grep -E '^VirtualThreadPutBenchmark.syncPuts ' $3.log | awk '{printf "%.0fK", $(NF-3)/1000}')"
