#!/bin/bash
# YCSB $W (default d; 1 M operations, the workload file), 32 threads, on stop 43's loaded stores: plain RocksDB, and p2kv with the
# value cache under fill policies set by a throw-away build's switches (p2kv.exp.warmfill: one miss in N fills an
# eighth-full cache; p2kv.exp.fullfill: one in N fills a full one). Rotating order; each run under the CPU lock.
cd /tmp/s44/exp
T=/tmp/s44/exp/ycsb-binding/target
BASE="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512"
run() { # tag db round cachemb warm full
  local f=/tmp/s44/ycsb/$W-$1-$3.txt
  local extra=""; [ "$4" != 0 ] && extra="-p p2kv.cachemb=$4"
  flock -x /tmp/p2kv-cpu.lock /usr/bin/time -f "%e s %U user %S sys" java -Xms1g -Xmx1g -Dp2kv.exp.warmfill=$5 -Dp2kv.exp.fullfill=$6 \
    -cp "$T/p2kv-ycsb-binding.jar:$T/lib/*" site.ycsb.Client -t -db io.p2kv.ycsb.$2 \
    -P ycsb-binding/workloads/p2kvs-$W -threads 32 -p p2kv.dir=/tmp/s43/ycsb/$2 $BASE $extra > $f 2>&1
  echo "$1 round $3: $(grep Throughput $f | cut -d, -f3) ops/s; $(tail -1 $f); $(grep -o 'hit ratio [0-9.]*.*' $f | head -1)"
}
W=${W:-d}
CONFIGS=("rocksdb RocksDbYcsbClient 0 8 64" "c128 P2kvYcsbClient 128 8 64" "c128w1 P2kvYcsbClient 128 1 64" "nocache P2kvYcsbClient 0 8 64")
n=${#CONFIGS[@]}
for r in 1 2 3; do
  for i in $(seq 0 $((n-1))); do
    c=(${CONFIGS[$(( (i + r) % n ))]})
    run ${c[0]} ${c[1]} $r ${c[2]} ${c[3]} ${c[4]}
  done
done
