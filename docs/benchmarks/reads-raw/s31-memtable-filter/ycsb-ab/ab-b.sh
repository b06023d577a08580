#!/usr/bin/env bash
# A/B of two p2kv builds on YCSB B against the RocksDB binding: one load per store (p2kv loaded by
# the base build), then per round B on p2kv-base, p2kv-new and rocksdb in a rotating order, each
# followed by Settle; /usr/bin/time gives each JVM's CPU.
set -euo pipefail
AB=${AB:-/work/exp/ab1}
OUT=${OUT:-$AB/out}
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-8}
PHASE=${PHASE:-b}
mkdir -p "$OUT"
W=/work/main/ycsb-binding/workloads
D=$(mktemp -d /tmp/abb.XXXXXX)
cp_of() { echo "$AB/$1/p2kv-ycsb-binding.jar:$AB/$1/lib/*"; }
PROPS="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512"
SPROPS=$(echo "$PROPS" | sed 's/-p //g')
client() { case $1 in rocksdb) echo io.p2kv.ycsb.RocksDbYcsbClient;; *) echo io.p2kv.ycsb.P2kvYcsbClient;; esac; }
build() { case $1 in new) echo new;; *) echo base;; esac; }
dir() { case $1 in rocksdb) echo $D/rocksdb;; *) echo $D/p2kv;; esac; }
for s in p2kv rocksdb; do
  flock -x /tmp/p2kv-cpu.lock java -Xms1g -Xmx1g -cp "$(cp_of base)" site.ycsb.Client -load -db "$(client $s)" -P $W/p2kvs-load -threads "$THREADS" -p p2kv.dir=$(dir $s) $PROPS > "$OUT/$s-load-t$THREADS.txt" 2>&1
  java -Xms1g -Xmx1g -cp "$(cp_of base)" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$(dir $s) $SPROPS >> "$OUT/$s-load-t$THREADS.txt" 2>&1
done
orders=("base new rocksdb" "rocksdb base new" "new rocksdb base" "base rocksdb new" "new base rocksdb" "rocksdb new base")
for r in $(seq ${START:-1} "$ROUNDS"); do
  for s in ${orders[$(( (r-1) % 6 ))]}; do
    f="$OUT/$s-$PHASE-t$THREADS-r$r.txt"
    flock -x /tmp/p2kv-cpu.lock /usr/bin/time -f "CPU user %U sys %S wall %e" java -Xms1g -Xmx1g -cp "$(cp_of $(build $s))" site.ycsb.Client -t -db "$(client $s)" -P $W/p2kvs-$PHASE -threads "$THREADS" -p p2kv.dir=$(dir $s) $PROPS ${EXTRA:-} > "$f" 2>&1
    java -Xms1g -Xmx1g -cp "$(cp_of base)" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$(dir $s) $SPROPS >> "$OUT/settle.txt" 2>&1
  done
done
rm -rf "$D"
