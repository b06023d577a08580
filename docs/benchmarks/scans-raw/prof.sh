#!/bin/bash
# prof.sh TAG THREADS : loads 2M records into p2kv and rocksdb templates (once), inlines p2kv's values
# (workload C), then perf-records workload ES on copies, for each binding.
set -u
cd /work/wt-scans
TAG=$1; T=$2
CP="ycsb-binding/target/p2kv-ycsb-binding.jar:ycsb-binding/target/lib/*"
PROPS="p2kv.shards=${SHARDS:-1} p2kv.readpath=direct p2kv.maxbatch=32 p2kv.sync=false p2kv.memorybudgetmb=512"
PP=(); for p in $PROPS; do PP+=(-p $p); done
D=/tmp/scans/data; OUT=/tmp/scans/prof; mkdir -p $OUT
cls() { [ $1 = p2kv ] && echo io.p2kv.ycsb.P2kvYcsbClient || echo io.p2kv.ycsb.RocksDbYcsbClient; }
W=ycsb-binding/workloads
if [ ! -d $D/tpl-p2kv ]; then
  rm -rf $D; mkdir -p $D
  for s in p2kv rocksdb; do
    java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -load -db $(cls $s) -P $W/p2kvs-load -threads 8 -p p2kv.dir=$D/tpl-$s "${PP[@]}" > $OUT/load-$s.txt 2>&1
    java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle $(cls $s) p2kv.dir=$D/tpl-$s $PROPS | tail -1
    java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -t -db $(cls $s) -P $W/p2kvs-c -threads 8 -p p2kv.dir=$D/tpl-$s "${PP[@]}" > $OUT/c-$s.txt 2>&1
    java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle $(cls $s) p2kv.dir=$D/tpl-$s $PROPS | tail -1
  done
fi
for s in p2kv rocksdb; do
  rm -rf $D/run; cp -a $D/tpl-$s $D/run
  f=$OUT/$TAG-$s-t$T
  ${PERF:-perf record -F 499 -g -o $f.data --} /usr/bin/time -f "cpu_user %U cpu_sys %S wall %e" java -Xms1g -Xmx1g -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer -cp "$CP" site.ycsb.Client -t -db $(cls $s) -P $W/${WL:-p2kvs-es} -threads $T -p p2kv.dir=$D/run "${PP[@]}" > $f.txt 2>&1
  echo "$TAG $s t$T $(grep -m1 'OVERALL\], Throughput' $f.txt | awk -F', ' '{print $3}') ops/s $(tail -1 $f.txt)"
done
