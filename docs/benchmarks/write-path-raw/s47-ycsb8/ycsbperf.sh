#!/bin/bash
# usage: ycsbperf.sh <P2kv|RocksDb> <threads> <tag>
set -e
cd /work/main
B=$1; T=$2; TAG=$3
D=/tmp/s47/ydir-$TAG; rm -rf $D; mkdir -p $D
OUT=/tmp/s47/perf-$TAG
flock -x /tmp/p2kv-cpu.lock perf record -F 799 -g -o $OUT.data -- java -Xms1g -Xmx1g -Djava.library.path=/tmp/s47/so -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit \
  -cp ycsb-binding/target/p2kv-ycsb-binding.jar:ycsb-binding/target/lib/* site.ycsb.Client -load -db io.p2kv.ycsb.${B}YcsbClient -P ycsb-binding/workloads/p2kvs-load -threads $T -p p2kv.dir=$D -p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=128 -p p2kv.sync=false -p p2kv.memorybudgetmb=512 > $OUT.log 2>&1
grep -E "OVERALL|INSERT\], (Operations|Average)" $OUT.log
