#!/usr/bin/env bash
# B and D at 8 threads: p2kv parking (default) vs p2kv yielding 1 ms vs the baseline; 3 rounds, interleaved.
cd /work/main
CP="ycsb-binding/target/p2kv-ycsb-binding.jar:ycsb-binding/target/lib/*"
J="java -Xms1g -Xmx1g -cp $CP"
COMMON="p2kv.shards=1 p2kv.valueseparation=none"
declare -A CLS=([park]=P2kvYcsbClient [yield]=P2kvYcsbClient [rocksdb]=RocksDbYcsbClient)
declare -A EXTRA=([park]="" [yield]="p2kv.idlemode=yield p2kv.yieldwaitnanos=1000000" [rocksdb]="")
props() { for p in $COMMON ${EXTRA[$1]}; do printf -- '-p %s ' "$p"; done; }
for v in park yield rocksdb; do
  d=/tmp/bd/data-$v; rm -rf $d
  $J site.ycsb.Client -load -db io.p2kv.ycsb.${CLS[$v]} -P ycsb-binding/workloads/p2kvs-load -threads 8 -p p2kv.dir=$d $(props $v) > /tmp/bd/$v-load.txt 2>&1
  echo "$v load $(grep -m1 Throughput /tmp/bd/$v-load.txt | awk -F', ' '{printf "%.0f", $3}')"
done
for r in 1 2 3; do
  for w in b d; do
    for v in park yield rocksdb; do
      d=/tmp/bd/data-$v
      $J io.p2kv.ycsb.Settle io.p2kv.ycsb.${CLS[$v]} p2kv.dir=$d $COMMON ${EXTRA[$v]} > /dev/null 2>&1
      # D inserts records: each round works on the store as the previous rounds left it (same for all three).
      $J site.ycsb.Client -t -db io.p2kv.ycsb.${CLS[$v]} -P ycsb-binding/workloads/p2kvs-$w -threads 8 -p p2kv.dir=$d $(props $v) > /tmp/bd/$v-$w-r$r.txt 2>&1
      echo "r$r $w $v $(grep -m1 Throughput /tmp/bd/$v-$w-r$r.txt | awk -F', ' '{printf "%.0f", $3}') update/insert mean $(grep -E '^\[(UPDATE|INSERT)\], AverageLatency' /tmp/bd/$v-$w-r$r.txt | awk -F', ' '{printf "%.0f", $3}')"
    done
  done
done
