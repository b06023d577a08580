#!/usr/bin/env bash
# p2kv only: load once, then run PHASE for each variant in VARIANTS (";"-separated extra -p lists),
# ROUNDS times, sampling per-thread CPU from /proc (ticks of 10 ms) every 0.5 s; keeps the last sample.
set -uo pipefail
cd /work/main
OUT=${OUT:-/work/exp/bthr}; ROUNDS=${ROUNDS:-2}; PHASE=${PHASE:-b}; THREADS=${THREADS:-8}
IFS=';' read -ra VARIANTS <<< "${VARIANTS:- }"
mkdir -p "$OUT"; D=$(mktemp -d /tmp/bthr.XXXXXX)
CP="ycsb-binding/target/p2kv-ycsb-binding.jar:ycsb-binding/target/lib/*"
BASE="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512"
DB=${DB:-io.p2kv.ycsb.P2kvYcsbClient}
java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -load -db $DB -P ycsb-binding/workloads/p2kvs-load -threads "$THREADS" -p p2kv.dir=$D/s $BASE > "$OUT/load.txt" 2>&1
java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle $DB p2kv.dir=$D/s $(echo $BASE | sed 's/-p //g') >> "$OUT/load.txt" 2>&1
for r in $(seq 1 $ROUNDS); do
  v=0
  for extra in "${VARIANTS[@]}"; do
    v=$((v+1)); f="$OUT/v$v-r$r.txt"; echo "variant: $extra" > "$f"
    /usr/bin/time -f "CPU user %U sys %S wall %e" java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -t -db $DB -P ycsb-binding/workloads/p2kvs-$PHASE -threads "$THREADS" -p p2kv.dir=$D/s $BASE $extra >> "$f" 2>&1 &
    pid=$!; jpid=""
    while kill -0 $pid 2>/dev/null; do
      [ -z "$jpid" ] && jpid=$(pgrep -P $pid java)
      if [ -n "$jpid" ]; then
        for t in /proc/$jpid/task/*; do awk '{s=$0; sub(/^[0-9]+ \(/,"",s); n=index(s,") "); name=substr(s,1,n-1); split(substr(s,n+2),a," "); print a[12]+a[13], name}' $t/stat 2>/dev/null; done > "$f.thr.tmp" && [ -s "$f.thr.tmp" ] && mv "$f.thr.tmp" "$f.thr"
      fi
      sleep 0.5
    done
    wait $pid
    java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle $DB p2kv.dir=$D/s $(echo $BASE | sed 's/-p //g') >> "$OUT/settle.txt" 2>&1
  done
done
rm -rf "$D"
