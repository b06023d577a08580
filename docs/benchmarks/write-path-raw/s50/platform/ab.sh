#!/bin/bash
# usage: ab.sh ROUND... : PutBenchmark.syncPut from 8 and 16 platform threads (1 shard, 112-byte values, WAL) with
# platform callers handing off past P waiting callers (P=0: main's path; temporary build exp5.jar), and RocksDB
for r in "$@"; do
  for p in 0 4 2; do
    flock -x /tmp/p2kv-cpu.lock java -jar /tmp/s50/exp5.jar 'PutBenchmark.syncPut$' -t 8 -p shards=1 -p maxBatch=128 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend -Dp2kv.exp.p=$p > p$p-r$r.log 2>&1
    echo "round $r p=$p: $(grep -E '^PutBenchmark.syncPut ' p$p-r$r.log | awk '{printf "%.0fK ", $(NF-3)/1000}') $(grep 'mean write batch' p$p-r$r.log | awk '{printf "b=%s ", $6}')"
  done
  flock -x /tmp/p2kv-cpu.lock java -jar /tmp/s50/exp5.jar 'RocksDbPutBenchmark' -t 8 -p baseline=rocksdb -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 > rocks-r$r.log 2>&1
  echo "round $r rocksdb: $(grep -E '^RocksDbPutBenchmark.put ' rocks-r$r.log | awk '{printf "%.0fK ", $(NF-3)/1000}')"
done
