#!/bin/bash
# Probe: VirtualThreadPutBenchmark (256 VTs) with thread affinity applied from outside the JMH fork.
# mode: none | pin (worker thread -> cpu1) | iso (worker -> cpu1, rocksdb:* threads -> cpu0) | bg (rocksdb:* -> cpu0 only)
# usage: iso.sh MODE TARGET TAG
cd /work/main
MODE=$1; TARGET=$2; TAG=$3; O=/tmp/s55/iso; mkdir -p $O
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
$J25 -jar jmh-benchmarks/target/benchmarks.jar 'VirtualThreadPutBenchmark.syncPuts$' -t 1 -f 1 -wi 1 -w 2 -i 3 -r 2 \
  -p vthreads=256 -p target=$TARGET > $O/$TAG.log 2>&1 &
JMH=$!
declare -A seen
while kill -0 $JMH 2>/dev/null; do
  for p in $(pgrep -f ForkedMain); do
    for t in /proc/$p/task/*; do
      tid=${t##*/}
      [ -n "${seen[$tid]:-}" ] && continue
      read -r c < $t/comm 2>/dev/null || continue
      case "$c" in
        p2kv-shard-*) seen[$tid]=1; if [ "$MODE" = pin -o "$MODE" = iso ]; then taskset -p 2 $tid >> $O/$TAG.aff 2>&1; fi ;;
        rocksdb:*) seen[$tid]=1; if [ "$MODE" = iso -o "$MODE" = bg ]; then taskset -p 1 $tid >> $O/$TAG.aff 2>&1; fi ;;
      esac
    done
  done
  sleep 0.2
done
grep -E "^VirtualThreadPutBenchmark" $O/$TAG.log | tail -1
