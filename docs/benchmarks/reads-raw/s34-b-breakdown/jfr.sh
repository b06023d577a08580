#!/usr/bin/env bash
# JFR compilation + deoptimization events for PHASES on p2kv and RocksDB, one load each.
set -uo pipefail
AB=/work/exp/s34; OUT=${OUT:-$AB/jfr}; THREADS=${THREADS:-8}; PHASES=${PHASES:-"b c d"}
mkdir -p "$OUT"; W=/work/main/ycsb-binding/workloads; D=$(mktemp -d /tmp/jfr34.XXXXXX)
CP="$AB/${BUILD:-cur}/p2kv-ycsb-binding.jar:$AB/${BUILD:-cur}/lib/*"
PROPS="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512"
SPROPS=$(echo "$PROPS" | sed 's/-p //g')
client() { case $1 in rocksdb) echo io.p2kv.ycsb.RocksDbYcsbClient;; *) echo io.p2kv.ycsb.P2kvYcsbClient;; esac; }
for s in ${STORES:-p2kv rocksdb}; do
  flock -x /tmp/p2kv-cpu.lock java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -load -db "$(client $s)" -P $W/p2kvs-load -threads "$THREADS" -p p2kv.dir=$D/$s $PROPS > "$OUT/$s-load.txt" 2>&1
  java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$D/$s $SPROPS >> "$OUT/$s-load.txt" 2>&1
done
for ph in $PHASES; do
for s in ${STORES:-p2kv rocksdb}; do
  f="$OUT/$s-$ph.txt"
  flock -x /tmp/p2kv-cpu.lock /usr/bin/time -f "CPU user %U sys %S wall %e" java -Xms1g -Xmx1g -XX:StartFlightRecording=filename=$OUT/$s-$ph.jfr,settings=/work/exp/s33/deopt.jfc ${JOPTS:-} -cp "$CP" site.ycsb.Client -t -db "$(client $s)" -P $W/p2kvs-$ph -threads "$THREADS" -p p2kv.dir=$D/$s $PROPS > "$f" 2>&1
  java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$D/$s $SPROPS >> "$OUT/settle.txt" 2>&1
  jfr print --events jdk.Compilation $OUT/$s-$ph.jfr | gzip > $OUT/comp-$s-$ph.txt.gz
  jfr print --events jdk.Deoptimization $OUT/$s-$ph.jfr | gzip > $OUT/deopt-$s-$ph.txt.gz
  echo "== $s $ph $(grep -m1 'Throughput' $f) $(grep '^CPU user' $f) deopts=$(zcat $OUT/deopt-$s-$ph.txt.gz | grep -c 'jdk.Deoptimization')"
  zcat $OUT/comp-$s-$ph.txt.gz | python3 /work/main/docs/benchmarks/reads-raw/s29-record-work/ycsb-b-cpu/comp-summary.py | head -6
done; done
[ -n "${KEEP:-}" ] && echo "kept $D" || rm -rf "$D"
