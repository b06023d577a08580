#!/bin/bash
# issue 15, stop 38: YCSB C/B at 32 threads, p2kv's value cache at several sizes vs none vs plain RocksDB, one load per store
set -u
cd /work/main
J=java; OPTS="-Xms1g -Xmx1g"; CP="ycsb-binding/target/p2kv-ycsb-binding.jar:ycsb-binding/target/lib/*"
BASE="p2kv.shards=1 p2kv.readpath=direct p2kv.maxbatch=32 p2kv.sync=false p2kv.memorybudgetmb=512"
OUT=${OUT:-/tmp/s38/c}; D=/tmp/s38/data; rm -rf $D $OUT; mkdir -p $D $OUT
SIZES=${SIZES:-"0 4 16 128"}
PH=${PH:-"c b"}
props() { for p in $BASE "$@"; do printf -- '-p %s ' "$p"; done; }
run() { # label class dir phase extra...
  local label=$1 cls=$2 dir=$3 ph=$4; shift 4
  local mode=-t; [ $ph = load ] && mode=-load
  $J $OPTS -cp "$CP" site.ycsb.Client $mode -db $cls -P ycsb-binding/workloads/p2kvs-$ph -threads 32 -p p2kv.dir=$dir $(props "$@") > $OUT/$label-$ph.txt 2>&1
  echo "$label $ph $(grep -m1 '^\[OVERALL\], Throughput' $OUT/$label-$ph.txt | awk -F', ' '{printf "%.0f", $3}') $(grep -o 'hit ratio [0-9.]*' $OUT/$label-$ph.txt | head -1)"
}
settle() { $J $OPTS -cp "$CP" io.p2kv.ycsb.Settle $1 p2kv.dir=$2 $BASE >/dev/null 2>&1; }
P=io.p2kv.ycsb.P2kvYcsbClient; R=io.p2kv.ycsb.RocksDbYcsbClient
run rocksdb $R $D/r load; run p2kv $P $D/p load
# first read phase after the load moves values back inline on p2kv (issue 13): not measured
settle $P $D/p; run p2kv-warm $P $D/p c
settle $R $D/r; run rocksdb-warm $R $D/r c
for r in 1 2 3; do
  for ph in $PH; do
    cfgs="rocksdb $SIZES"; if [ $((r % 2)) = 0 ]; then cfgs="$(echo $cfgs | tr ' ' '\n' | tac | tr '\n' ' ')"; fi
    for c in $cfgs; do
      if [ $c = rocksdb ]; then settle $R $D/r; run rocksdb-r$r $R $D/r $ph
      elif [ $c = 0 ]; then settle $P $D/p; run p2kv-c0-r$r $P $D/p $ph
      else settle $P $D/p; run p2kv-c$c-r$r $P $D/p $ph p2kv.cachemb=$c; fi
    done
  done
done
echo DONE
