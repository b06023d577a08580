#!/usr/bin/env bash
# perf profile of E (long) on p2kv and RocksDB, one load each.
set -uo pipefail
AB=/work/exp/s33; OUT=${OUT:-$AB/eperf}; THREADS=${THREADS:-8}; PHASE=${PHASE:-e}
mkdir -p "$OUT"; W=/work/main/ycsb-binding/workloads; D=$(mktemp -d /tmp/eperf.XXXXXX)
CP="$AB/${BUILD:-cur}/p2kv-ycsb-binding.jar:$AB/${BUILD:-cur}/lib/*"
PROPS="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512"
SPROPS=$(echo "$PROPS" | sed 's/-p //g')
client() { case $1 in rocksdb) echo io.p2kv.ycsb.RocksDbYcsbClient;; *) echo io.p2kv.ycsb.P2kvYcsbClient;; esac; }
for s in p2kv rocksdb; do
  flock -x /tmp/p2kv-cpu.lock java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -load -db "$(client $s)" -P $W/p2kvs-load -threads "$THREADS" -p p2kv.dir=$D/$s $PROPS > "$OUT/$s-load.txt" 2>&1
  java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$D/$s $SPROPS >> "$OUT/$s-load.txt" 2>&1
done
for s in p2kv rocksdb; do
  f="$OUT/$s-$PHASE.txt"
  flock -x /tmp/p2kv-cpu.lock perf record -F 499 -g -o "$OUT/$s.perf" -- java -Xms1g -Xmx1g -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer -cp "$CP" site.ycsb.Client -t -db "$(client $s)" -P $W/p2kvs-$PHASE -threads "$THREADS" -p p2kv.dir=$D/$s $PROPS -p operationcount=${LONGOPS:-1000000} > "$f" 2>&1
  echo "$s $(grep -m1 'Throughput' $f)"
done
rm -rf "$D"
