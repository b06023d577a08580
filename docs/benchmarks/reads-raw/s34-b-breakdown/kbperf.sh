#!/usr/bin/env bash
# perf of the 1 KB B phase right after the load (default policy), p2kv only; also `none`.
set -uo pipefail
AB=/work/exp/s34; OUT=${OUT:-$AB/kbperf}; mkdir -p $OUT; W=/work/main/ycsb-binding/workloads; D=$(mktemp -d /tmp/kb.XXXXXX)
CP="$AB/${BUILD:-cur}/p2kv-ycsb-binding.jar:$AB/${BUILD:-cur}/lib/*"
PROPS="-p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512 ${XPROPS:-}"
SIZE="-p recordcount=300000 -p fieldlength=1000"
flock -x /tmp/p2kv-cpu.lock java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -load -db io.p2kv.ycsb.P2kvYcsbClient -P $W/p2kvs-load -threads 8 -p p2kv.dir=$D/p $PROPS $SIZE > $OUT/load.txt 2>&1
java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle io.p2kv.ycsb.P2kvYcsbClient p2kv.dir=$D/p $(echo $PROPS | sed 's/-p //g') >> $OUT/load.txt 2>&1
ls -la $D/p/shard-0* 2>/dev/null | head -3; du -sh $D/p
flock -x /tmp/p2kv-cpu.lock perf record -q -F 499 -g -o $OUT/b.perf -- java -Xms1g -Xmx1g -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer -cp "$CP" site.ycsb.Client -t -db io.p2kv.ycsb.P2kvYcsbClient -P $W/p2kvs-b -threads 8 -p p2kv.dir=$D/p $PROPS $SIZE > $OUT/b.txt 2>&1
grep -m1 Throughput $OUT/b.txt; grep "back inline" $OUT/b.txt | tail -1
find $D/p -name LOG | head -1 | xargs -I{} cp {} $OUT/LOG
rm -rf $D
