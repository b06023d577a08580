#!/bin/bash
# usage: ab.sh ROUND... : VirtualThreadPutBenchmark, main's jar against the change's, vthreads 1,4,32,256, then RocksDB at 32 and 256; odd rounds main first
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in "$@"; do
  if [ $((r % 2)) = 1 ]; then order="main vt"; else order="vt main"; fi
  for v in $order; do
    flock -x /tmp/p2kv-cpu.lock timeout 400 $J -jar /tmp/s50/$v.jar VirtualThreadPutBenchmark -p vthreads=1,4,32,256 -p target=p2kv -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler > $v-r$r.log 2>&1
    echo "round $r $v: $(grep -E 'syncPuts +128' $v-r$r.log | awk '{printf "%s=%.0fK ", $4, $(NF-3)/1000}') $(grep 'mean write batch' $v-r$r.log | awk '{printf "b=%s ", $6}')"
  done
  flock -x /tmp/p2kv-cpu.lock timeout 400 $J -jar /tmp/s50/main.jar VirtualThreadPutBenchmark -p vthreads=32,256 -p target=rocksdb -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler > rocksdb-r$r.log 2>&1
  echo "round $r rocksdb: $(grep -E 'syncPuts +128' rocksdb-r$r.log | awk '{printf "%s=%.0fK ", $4, $(NF-3)/1000}')"
done
