#!/bin/bash
# usage: vt-rounds.sh ROUND... : run-write-path.sh's vthreads run (256 virtual threads into p2kv and RocksDB, and the
# single-thread WriteBatch-of-32 limit) with main's jar (main.jar, 2b7f292) and the change's (vtf.jar); odd rounds main first
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in "$@"; do
  if [ $((r % 2)) = 1 ]; then order="main vtf"; else order="vtf main"; fi
  for v in $order; do
    flock -x /tmp/p2kv-cpu.lock $J -jar /tmp/s50/$v.jar 'VirtualThreadPutBenchmark.syncPuts$|BatchLimitBenchmark.writeBatchOf32$' -t 1 -f 1 -wi 1 -w 2 -i 3 -r 2 \
      -p vthreads=256 -p target=p2kv,rocksdb -p valueBytes=112 -p durability=WAL -rf json -rff vthreads-$v-r$r.json > vthreads-$v-r$r.log 2>&1
    echo "round $r $v: $(grep -E '^(VirtualThreadPutBenchmark|BatchLimitBenchmark)\.[a-zA-Z0-9]+ ' vthreads-$v-r$r.log | awk '{printf "%s=%.0fK ", ($1 ~ /Batch/ ? "limit" : $4), $(NF-2)/1000}') $(grep 'mean write batch' vthreads-$v-r$r.log | awk '{printf "b=%s ", $6}')"
  done
done
