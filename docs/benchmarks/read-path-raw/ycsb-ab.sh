#!/bin/bash
# ycsb-ab.sh NAME ROUNDS THREADS BUILD1 BUILD2 [extra -p props...]
# Loads one p2kv and one RocksDB store (RECORDS, default 500000) with BUILD1, settles them, keeps them as templates;
# then per round, per build (order swapped each round): workload E (OPS operations) on fresh copies, p2kv then RocksDB.
set -u
NAME=$1; ROUNDS=$2; T=$3; B1=$4; B2=$5; shift 5
RECORDS=${RECORDS:-500000}; OPS=${OPS:-60000}; WL=${WL:-/work/wt-reads/ycsb-binding/workloads/p2kvs-e}
PROPS="p2kv.shards=${SHARDS:-1} p2kv.readpath=direct p2kv.maxbatch=32 p2kv.sync=false p2kv.memorybudgetmb=512 p2kv.valueseparation=none"
PP=(); for p in $PROPS; do PP+=(-p $p); done
D=./ydata; OUT=./yraw/$NAME; mkdir -p $OUT
cls() { [ $1 = p2kv ] && echo io.p2kv.ycsb.P2kvYcsbClient || echo io.p2kv.ycsb.RocksDbYcsbClient; }
if [ ! -d $D/tpl-p2kv-$RECORDS ]; then
  rm -rf $D; mkdir -p $D
  for s in p2kv rocksdb; do
    java -Xms1g -Xmx1g -cp "$B1/p2kv-ycsb-binding.jar:$B1/lib/*" site.ycsb.Client -load -db $(cls $s) -P /work/wt-reads/ycsb-binding/workloads/p2kvs-load -threads 8 -p p2kv.dir=$D/tpl-$s-$RECORDS "${PP[@]}" -p recordcount=$RECORDS > $OUT/load-$s.txt 2>&1
    java -Xms1g -Xmx1g -cp "$B1/p2kv-ycsb-binding.jar:$B1/lib/*" io.p2kv.ycsb.Settle $(cls $s) p2kv.dir=$D/tpl-$s-$RECORDS $PROPS | tail -1
  done
fi
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) = 1 ]; then order="$B1 $B2"; else order="$B2 $B1"; fi
  for b in $order; do
    tag=$(basename $b)
    for s in p2kv rocksdb; do
      rm -rf $D/run; cp -a $D/tpl-$s-$RECORDS $D/run
      f=$OUT/$tag-$s-t$T-r$r.txt
      /usr/bin/time -f "cpu_user %U cpu_sys %S wall %e" java -Xms1g -Xmx1g -cp "$b/p2kv-ycsb-binding.jar:$b/lib/*" site.ycsb.Client -t -db $(cls $s) -P $WL -threads $T -p p2kv.dir=$D/run "${PP[@]}" -p recordcount=$RECORDS -p operationcount=$OPS "$@" > $f 2>&1
      echo "$(date +%T) r$r $tag $s t$T $(grep -m1 'OVERALL\], Throughput' $f | awk -F', ' '{print $3}') ops/s  $(tail -1 $f) load $(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
