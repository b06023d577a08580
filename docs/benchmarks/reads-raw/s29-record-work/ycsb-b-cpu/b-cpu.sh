#!/usr/bin/env bash
# CPU per operation of YCSB B (and C) for p2kv (defaults) and the plain RocksDB binding: one load per
# store, settle, then the run phases alternately; /usr/bin/time gives the JVM's user+sys CPU, and a
# sampler records per-thread CPU of the p2kv JVM at the end of the run (ps -L).
set -euo pipefail
cd /work/main
OUT=${OUT:-/work/exp/bcpu}
ROUNDS=${ROUNDS:-3}
PHASES=${PHASES:-"b c"}
THREADS=${THREADS:-8}
EXTRA=${EXTRA:-}
mkdir -p "$OUT"
D=$(mktemp -d /tmp/bcpu.XXXXXX)
CP="ycsb-binding/target/p2kv-ycsb-binding.jar:ycsb-binding/target/lib/*"
PROPS="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512 $EXTRA"
SPROPS=$(echo "$PROPS" | sed 's/-p //g')
client() { case $1 in p2kv) echo io.p2kv.ycsb.P2kvYcsbClient;; rocksdb) echo io.p2kv.ycsb.RocksDbYcsbClient;; esac; }
for s in p2kv rocksdb; do
  java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -load -db "$(client $s)" -P ycsb-binding/workloads/p2kvs-load -threads "$THREADS" -p p2kv.dir=$D/$s $PROPS > "$OUT/$s-load.txt" 2>&1
  java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$D/$s $SPROPS >> "$OUT/$s-load.txt" 2>&1
done
for r in $(seq 1 "$ROUNDS"); do
  for ph in $PHASES; do
    if [ $((r % 2)) = 1 ]; then order="p2kv rocksdb"; else order="rocksdb p2kv"; fi
    for s in $order; do
      f="$OUT/$s-$ph-r$r.txt"
      /usr/bin/time -f "CPU user %U sys %S wall %e" java -Xms1g -Xmx1g -XX:+UnlockDiagnosticVMOptions -cp "$CP" site.ycsb.Client -t -db "$(client $s)" -P ycsb-binding/workloads/p2kvs-$ph -threads "$THREADS" -p p2kv.dir=$D/$s $PROPS > "$f" 2>&1 &
      pid=$!
      # per-thread CPU of the JVM shortly before it ends: sample every second, keep the last
      jpid=""
      while kill -0 $pid 2>/dev/null; do
        [ -z "$jpid" ] && jpid=$(pgrep -P $pid java || true)
        [ -n "$jpid" ] && ps -L -o tid=,comm=,time= -p "$jpid" > "$f.threads.tmp" 2>/dev/null && mv "$f.threads.tmp" "$f.threads"
        sleep 1
      done
      wait $pid || true
      java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$D/$s $SPROPS >> "$OUT/$s-settle.txt" 2>&1
    done
  done
done
rm -rf "$D"
