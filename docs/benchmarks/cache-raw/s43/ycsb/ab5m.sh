#!/bin/bash
# YCSB C, 5 M operations, 32 threads, on stores loaded once (2 M records): p2kv with the value cache (128 MiB) before and after
# the fix, and plain RocksDB; rotating order; each run under the exclusive CPU lock.
cd /work/main
PROPS="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512 -p p2kv.cachemb=128"
run() { # tag classpath-dir db round
  flock -x /tmp/p2kv-cpu.lock /usr/bin/time -f "%e s %U user %S sys" java -Xms1g -Xmx1g -cp "$2/p2kv-ycsb-binding.jar:$2/lib/*" site.ycsb.Client -t -db io.p2kv.ycsb.$3 \
    -P ycsb-binding/workloads/p2kvs-c -threads 32 -p operationcount=5000000 -p p2kv.dir=/tmp/s43/ycsb/$3 $PROPS > /tmp/s43/ycsb/ab-$1-$4.txt 2>&1
  echo "$1 round $4: $(grep Throughput /tmp/s43/ycsb/ab-$1-$4.txt | cut -d, -f3) ops/s; $(tail -1 /tmp/s43/ycsb/ab-$1-$4.txt); $(grep -o 'hit ratio [0-9.]*' /tmp/s43/ycsb/ab-$1-$4.txt)"
}
NEW=/work/main/ycsb-binding/target; OLD=/tmp/s43/ycsb-old
for r in 1 2 3; do
  case $r in
    1) run new $NEW P2kvYcsbClient $r; run old $OLD P2kvYcsbClient $r; run rocksdb $NEW RocksDbYcsbClient $r;;
    2) run old $OLD P2kvYcsbClient $r; run rocksdb $NEW RocksDbYcsbClient $r; run new $NEW P2kvYcsbClient $r;;
    3) run rocksdb $NEW RocksDbYcsbClient $r; run new $NEW P2kvYcsbClient $r; run old $OLD P2kvYcsbClient $r;;
  esac
done
