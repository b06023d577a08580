#!/bin/bash
# 3 rounds, rotating order: VirtualThreadPutBenchmark p2kv and rocksdb (JDK 25), BatchLimitBenchmark 112 B WAL (JDK 17), suite's iteration settings
JAR=/work/main/jmh-benchmarks/target/benchmarks.jar
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
IT="-f 1 -wi 1 -w 2 -i 3 -r 2"
vt() { flock -x /tmp/p2kv-cpu.lock $J25 -jar $JAR VirtualThreadPutBenchmark -p vthreads=256 -p target=$1 $IT -prof io.p2kv.bench.CpuProfiler -rf json -rff vt-$1-r$2.json > vt-$1-r$2.txt 2>&1; }
lim() { flock -x /tmp/p2kv-cpu.lock java -jar $JAR BatchLimitBenchmark -p valueBytes=112 -p durability=WAL $IT -prof io.p2kv.bench.CpuProfiler -rf json -rff limit-r$1.json > limit-r$1.txt 2>&1; }
vt p2kv 1; vt rocksdb 1; lim 1
vt rocksdb 2; lim 2; vt p2kv 2
lim 3; vt p2kv 3; vt rocksdb 3
