#!/usr/bin/env bash
# A/B of JVM options (VARIANTS: name=opts, separated by ';') on p2kv against RocksDB, PHASES, rotating order.
set -uo pipefail
AB=/work/exp/s34; OUT=${OUT:-$AB/ab}; ROUNDS=${ROUNDS:-3}; THREADS=${THREADS:-8}; PHASES=${PHASES:-b}
mkdir -p "$OUT"; W=/work/main/ycsb-binding/workloads; D=$(mktemp -d /tmp/ab34.XXXXXX)
PROPS="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512"
SPROPS=$(echo "$PROPS" | sed 's/-p //g')
IFS=';' read -ra VS <<< "${VARIANTS:-base=}"
names=(); declare -A opts; declare -A build
for v in "${VS[@]}"; do n=${v%%=*}; names+=("$n"); opts[$n]="${v#*=}"; build[$n]=cur; done
for b in ${BUILDS:-}; do names+=("$b"); opts[$b]=""; build[$b]=$b; done
names+=(rocksdb); opts[rocksdb]=""; build[rocksdb]=cur
cp_of() { echo "$AB/$1/p2kv-ycsb-binding.jar:$AB/$1/lib/*"; }
client() { case $1 in rocksdb) echo io.p2kv.ycsb.RocksDbYcsbClient;; *) echo io.p2kv.ycsb.P2kvYcsbClient;; esac; }
dir() { case $1 in rocksdb) echo $D/rocksdb;; *) echo $D/p2kv;; esac; }
for s in p2kv rocksdb; do
  flock -x /tmp/p2kv-cpu.lock java -Xms1g -Xmx1g -cp "$(cp_of cur)" site.ycsb.Client -load -db "$(client $s)" -P $W/p2kvs-load -threads "$THREADS" -p p2kv.dir=$(dir $s) $PROPS > "$OUT/$s-load.txt" 2>&1
  java -Xms1g -Xmx1g -cp "$(cp_of cur)" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$(dir $s) $SPROPS >> "$OUT/$s-load.txt" 2>&1
  echo "load $s $(grep -m1 'Throughput' $OUT/$s-load.txt | awk -F', ' '{printf "%.0f",$3}')"
done
n=${#names[@]}
for r in $(seq 1 "$ROUNDS"); do
  for ph in $PHASES; do
    for i in $(seq 0 $((n-1))); do
      s=${names[$(( (i + r - 1) % n ))]}
      f="$OUT/$s-$ph-t$THREADS-r$r.txt"
      flock -x /tmp/p2kv-cpu.lock /usr/bin/time -f "CPU user %U sys %S wall %e" perf record -q -F 199 -o $OUT/$s-$ph-r$r.perf -- java -Xms1g -Xmx1g -XX:+CITime ${opts[$s]} -cp "$(cp_of ${build[$s]})" site.ycsb.Client -t -db "$(client $s)" -P $W/p2kvs-$ph -threads "$THREADS" -p p2kv.dir=$(dir $s) $PROPS ${EXTRA:-} > "$f" 2>&1
      java -Xms1g -Xmx1g -cp "$(cp_of cur)" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$(dir $s) $SPROPS >> "$OUT/settle.txt" 2>&1
      echo "$ph r$r $s $(grep -m1 'Throughput' $f | awk -F', ' '{printf "%.0f",$3}') $(grep '^CPU user' $f) $(perf report -i $OUT/$s-$ph-r$r.perf -n --no-children --sort comm --stdio -g none 2>/dev/null | awk '/^ /{t+=$2; if ($3=="C2") c2+=$2; else if ($3 ~ /^Thread-/) y+=$2; else if ($3=="C1") c1+=$2} END{printf "samples %d C2 %d C1 %d ycsb %d", t, c2, c1, y}')"
    done
  done
done
rm -rf "$D"
