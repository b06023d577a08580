#!/usr/bin/env bash
# base vs lone (lone-update path only) vs new (lone + heap batches), long B phases, p2kv only
set -euo pipefail
AB=/work/exp/ab4; OUT=$AB/out; mkdir -p $OUT
W=/work/main/ycsb-binding/workloads; D=$(mktemp -d /tmp/ab4.XXXXXX)
PROPS="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512"
SPROPS=$(echo "$PROPS" | sed 's/-p //g')
cp_of() { echo "$AB/$1/p2kv-ycsb-binding.jar:$AB/$1/lib/*"; }
C=io.p2kv.ycsb.P2kvYcsbClient
flock -x /tmp/p2kv-cpu.lock java -Xms1g -Xmx1g -cp "$(cp_of base)" site.ycsb.Client -load -db $C -P $W/p2kvs-load -threads 8 -p p2kv.dir=$D/s $PROPS > $OUT/load.txt 2>&1
java -Xms1g -Xmx1g -cp "$(cp_of base)" io.p2kv.ycsb.Settle $C p2kv.dir=$D/s $SPROPS >> $OUT/load.txt 2>&1
orders=("base lone new" "new base lone" "lone new base")
for r in 1 2 3; do
  for s in ${orders[$((r-1))]}; do
    f=$OUT/$s-b-t8-r$r.txt
    flock -x /tmp/p2kv-cpu.lock /usr/bin/time -f "CPU user %U sys %S wall %e" java -Xms1g -Xmx1g -cp "$(cp_of $s)" site.ycsb.Client -t -db $C -P $W/p2kvs-b -threads 8 -p p2kv.dir=$D/s $PROPS -p operationcount=5000000 > $f 2>&1
    java -Xms1g -Xmx1g -cp "$(cp_of base)" io.p2kv.ycsb.Settle $C p2kv.dir=$D/s $SPROPS >> $OUT/settle.txt 2>&1
  done
done
rm -rf $D
