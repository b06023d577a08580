#!/bin/bash
# usage: jmhsched.sh TARGET TAG: VirtualThreadPutBenchmark (256 virtual threads, JDK 25) with per-thread schedstat samples of the forked JVM
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
rm -f snap-$2-*
$J/java -jar /work/main/jmh-benchmarks/target/benchmarks.jar VirtualThreadPutBenchmark -p vthreads=256 -p target=$1 -f 1 -wi 1 -w 2 -i 4 -r 2 -prof io.p2kv.bench.CpuProfiler > jmh-$2.txt 2>&1 &
M=$!
for i in $(seq 1 100); do P=$(pgrep -f ForkedMain | head -1); [ -n "$P" ] && break; sleep 0.2; done
python3 samp.py $P $2
wait $M
