#!/bin/bash
# A/B of the memtable cap: VirtualThreadPutBenchmark p2kv and rocksdb (JDK 25), BatchLimitBenchmark 112 B WAL (JDK 17)
JAR=/work/wt-mem/jmh-benchmarks/target/benchmarks.jar
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
IT="-f 1 -wi 1 -w 2 -i 3 -r 2"
vt() { flock -x /tmp/p2kv-cpu.lock $J25 -jar $JAR VirtualThreadPutBenchmark -p vthreads=256 -p target=$1 $IT -jvmArgsAppend -Dp2kv.exp.wbmaxmib=$3 -prof io.p2kv.bench.CpuProfiler -rf json -rff vt-$1-w$3-r$2.json > vt-$1-w$3-r$2.txt 2>&1; }
lim() { flock -x /tmp/p2kv-cpu.lock java -jar $JAR BatchLimitBenchmark -p valueBytes=112 -p durability=WAL $IT -jvmArgsAppend -Dp2kv.exp.wbmaxmib=$2 -prof io.p2kv.bench.CpuProfiler -rf json -rff limit-w$2-r$1.json > limit-w$2-r$1.txt 2>&1; }
for r in 1 2; do
  for w in 64 16; do vt p2kv $r $w; vt rocksdb $r $w; lim $r $w; done
done
