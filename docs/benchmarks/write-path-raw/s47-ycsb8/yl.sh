#!/bin/bash
# usage: yl.sh <P2kv|RocksDb> <threads> <tag> [extra -p props...]
cd /work/main
B=$1; T=$2; TAG=$3; shift 3
D=/tmp/s47/ydir-$TAG; rm -rf $D; mkdir -p $D
flock -x /tmp/p2kv-cpu.lock java -Xms1g -Xmx1g -cp ycsb-binding/target/p2kv-ycsb-binding.jar:ycsb-binding/target/lib/* site.ycsb.Client -load -db io.p2kv.ycsb.${B}YcsbClient -P ycsb-binding/workloads/p2kvs-load -threads $T -p p2kv.dir=$D -p p2kv.readpath=direct -p p2kv.maxbatch=128 -p p2kv.sync=false -p p2kv.memorybudgetmb=512 "$@" > /tmp/s47/yl-$TAG.log 2>&1
echo "$TAG $(grep -E 'OVERALL\], Throughput' /tmp/s47/yl-$TAG.log | awk -F', ' '{printf "%.0f", $3}')"
rm -rf $D
