#!/usr/bin/env bash
# Each variant (VARIANTS: name=p2kv props;...) gets its own store: load, settle, then PHASES in turn, interleaved across variants and RocksDB.
set -uo pipefail
AB=/work/exp/s34; OUT=${OUT:-$AB/seq}; THREADS=${THREADS:-8}; PHASES=${PHASES:-"b c d e"}
mkdir -p "$OUT"; W=/work/main/ycsb-binding/workloads; D=$(mktemp -d /tmp/seq34.XXXXXX)
BASE="p2kv.shards=1 p2kv.readpath=direct p2kv.maxbatch=32 p2kv.sync=false p2kv.memorybudgetmb=512"
SIZE="${SIZE:--p recordcount=300000 -p fieldlength=1000}"
IFS=';' read -ra VS <<< "${VARIANTS:-default=}"
names=(); declare -A props
for v in "${VS[@]}"; do n=${v%%=*}; names+=("$n"); props[$n]="$BASE ${v#*=}"; done
names+=(rocksdb); props[rocksdb]="$BASE"
CP="$AB/${BUILD:-cur}/p2kv-ycsb-binding.jar:$AB/${BUILD:-cur}/lib/*"
client() { case $1 in rocksdb) echo io.p2kv.ycsb.RocksDbYcsbClient;; *) echo io.p2kv.ycsb.P2kvYcsbClient;; esac; }
pp() { for p in ${props[$1]}; do printf -- "-p %s " "$p"; done; }
run() { # name phase
  local s=$1 ph=$2 mode=-t; [ $ph = load ] && mode=-load
  local f="$OUT/$s-$ph.txt"
  flock -x /tmp/p2kv-cpu.lock /usr/bin/time -f "CPU user %U sys %S wall %e" java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client $mode -db "$(client $s)" -P $W/p2kvs-$ph -threads "$THREADS" -p p2kv.dir=$D/$s $(pp $s) $SIZE ${EXTRA:-} > "$f" 2>&1
  java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle "$(client $s)" p2kv.dir=$D/$s ${props[$s]} >> "$OUT/$s-settle.txt" 2>&1
  echo "$ph $s $(grep -m1 'Throughput' $f | awk -F', ' '{printf "%.0f",$3}') $(grep '^CPU user' $f) | $(grep -h 'back inline\|-> small' $f | sed 's/.*shard 0: //' | cut -c1-160 | tr '\n' ' ')"
}
n=${#names[@]}; i=0
for ph in load $PHASES; do
  for k in $(seq 0 $((n-1))); do run ${names[$(( (k + i) % n ))]} $ph; done; i=$((i+1))
done
du -sh $D/* | tr '\n' ' '; echo
rm -rf "$D"
