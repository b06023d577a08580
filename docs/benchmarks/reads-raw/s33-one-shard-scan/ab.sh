#!/usr/bin/env bash
# A/B: p2kv base build vs new build vs RocksDB binding on PHASE, short (workload's ops) and long (LONGOPS), rotating order.
set -uo pipefail
AB=/work/exp/s33; OUT=${OUT:-$AB/ab}; ROUNDS=${ROUNDS:-3}; THREADS=${THREADS:-8}; PHASE=${PHASE:-e}
mkdir -p "$OUT"; W=/work/main/ycsb-binding/workloads; D=$(mktemp -d /tmp/ab33.XXXXXX)
cp_of() { echo "$AB/$1/p2kv-ycsb-binding.jar:$AB/$1/lib/*"; }
PROPS="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512"
SPROPS=$(echo "$PROPS" | sed 's/-p //g')
client() { case $1 in rocksdb) echo io.p2kv.ycsb.RocksDbYcsbClient;; *) echo io.p2kv.ycsb.P2kvYcsbClient;; esac; }
build() { case $1 in new) echo new;; *) echo cur;; esac; }
dir() { case $1 in rocksdb) echo $D/rocksdb;; *) echo $D/p2kv;; esac; }
for s in p2kv rocksdb; do
  flock -x /tmp/p2kv-cpu.lock java -Xms1g -Xmx1g -cp "$(cp_of cur)" site.ycsb.Client -load -db "$(client $s)" -P $W/p2kvs-load -threads "$THREADS" -p p2kv.dir=$(dir $s) $PROPS > "$OUT/$s-load.txt" 2>&1
  java -Xms1g -Xmx1g -cp "$(cp_of cur)" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$(dir $s) $SPROPS >> "$OUT/$s-load.txt" 2>&1
done
orders=("base new rocksdb" "rocksdb base new" "new rocksdb base" "base rocksdb new" "new base rocksdb" "rocksdb new base")
for r in $(seq 1 "$ROUNDS"); do
  for len in ${LENS:-short long}; do
    if [ $len = long ]; then EXTRA="-p operationcount=${LONGOPS:-1000000}"; else EXTRA=""; fi
    for s in ${orders[$(( (r-1) % 6 ))]}; do
      f="$OUT/$s-$PHASE-$len-t$THREADS-r$r.txt"
      flock -x /tmp/p2kv-cpu.lock /usr/bin/time -f "CPU user %U sys %S wall %e" java -Xms1g -Xmx1g -cp "$(cp_of $(build $s))" site.ycsb.Client -t -db "$(client $s)" -P $W/p2kvs-$PHASE -threads "$THREADS" -p p2kv.dir=$(dir $s) $PROPS $EXTRA > "$f" 2>&1
      java -Xms1g -Xmx1g -cp "$(cp_of cur)" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$(dir $s) $SPROPS >> "$OUT/settle.txt" 2>&1
      echo "$s $len r$r $(grep -m1 'Throughput' $f | awk -F', ' '{printf "%.0f",$3}') $(grep '^CPU user' $f)"
    done
  done
done
rm -rf "$D"
