#!/bin/bash
# A/B: memtable split into N merged at flush (no atomic flush) vs today's
JAR=/tmp/s60/bench-merge.jar
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
IT="-f 1 -wi 1 -w 2 -i 3 -r 2"
vt() { flock -x /tmp/p2kv-cpu.lock $J25 -jar $JAR VirtualThreadPutBenchmark.syncPuts -p vthreads=256 -p target=$1 -p valueBytes=112 -p durability=WAL $IT -jvmArgsAppend -Dp2kv.exp.merge=$3 -prof io.p2kv.bench.CpuProfiler -rf json -rff vt-$1-m$3-r$2.json > vt-$1-m$3-r$2.txt 2>&1; }
lim() { flock -x /tmp/p2kv-cpu.lock java -jar $JAR BatchLimitBenchmark.writeBatchOf32 -p valueBytes=112 -p durability=WAL $IT -jvmArgsAppend -Dp2kv.exp.merge=$2 -prof io.p2kv.bench.CpuProfiler -rf json -rff limit-m$2-r$1.json > limit-m$2-r$1.txt 2>&1; }
for r in ${ROUNDS:-1 2}; do
  for m in ${MERGES:-1 4 8}; do vt p2kv $r $m; vt rocksdb $r $m; lim $r $m; done
done
