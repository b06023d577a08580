#!/usr/bin/env bash
# E short (166,667 ops) vs E long (1,000,000 ops), p2kv and RocksDB, on one load per store, with CITime.
set -uo pipefail
AB=/work/exp/s33; OUT=${OUT:-$AB/elen}; ROUNDS=${ROUNDS:-2}; THREADS=${THREADS:-8}; PHASE=${PHASE:-e}
mkdir -p "$OUT"; W=/work/main/ycsb-binding/workloads; D=$(mktemp -d /tmp/elen.XXXXXX)
CP="$AB/cur/p2kv-ycsb-binding.jar:$AB/cur/lib/*"
PROPS="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512"
SPROPS=$(echo "$PROPS" | sed 's/-p //g')
client() { case $1 in rocksdb) echo io.p2kv.ycsb.RocksDbYcsbClient;; *) echo io.p2kv.ycsb.P2kvYcsbClient;; esac; }
for s in p2kv rocksdb; do
  flock -x /tmp/p2kv-cpu.lock java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -load -db "$(client $s)" -P $W/p2kvs-load -threads "$THREADS" -p p2kv.dir=$D/$s $PROPS > "$OUT/$s-load.txt" 2>&1
  java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$D/$s $SPROPS >> "$OUT/$s-load.txt" 2>&1
done
for r in $(seq 1 $ROUNDS); do
  for len in ${LENS:-short long}; do
    if [ $len = long ]; then EXTRA="-p operationcount=${LONGOPS:-1000000}"; else EXTRA=""; fi
    order="p2kv rocksdb"; [ $((r % 2)) = 0 ] && order="rocksdb p2kv"
    for s in $order; do
      f="$OUT/$s-$PHASE-$len-r$r.txt"
      flock -x /tmp/p2kv-cpu.lock /usr/bin/time -f "CPU user %U sys %S wall %e" java -Xms1g -Xmx1g -XX:+CITime -cp "$CP" site.ycsb.Client -t -db "$(client $s)" -P $W/p2kvs-$PHASE -threads "$THREADS" -p p2kv.dir=$D/$s $PROPS $EXTRA > "$f" 2>&1
      java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$D/$s $SPROPS >> "$OUT/settle.txt" 2>&1
      echo "$s $len r$r $(grep -m1 'Throughput' $f | awk -F', ' '{printf "%.0f",$3}') $(grep -m1 'C2 Compile Time' $f | tr -s ' ') $(grep '^CPU user' $f)"
    done
  done
done
rm -rf "$D"
