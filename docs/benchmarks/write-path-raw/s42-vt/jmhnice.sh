#!/bin/bash
# usage: jmhnice.sh NICE TAG: VirtualThreadPutBenchmark target=p2kv; the shard worker reniced to NICE once it exists (diagnostic: needs CAP_SYS_NICE for < 0)
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
rm -f snap-$2-*
$J/java -jar /work/main/jmh-benchmarks/target/benchmarks.jar VirtualThreadPutBenchmark -p vthreads=256 -p target=p2kv -f 1 -wi 1 -w 2 -i 4 -r 2 -prof io.p2kv.bench.CpuProfiler > jmh-$2.txt 2>&1 &
M=$!
for i in $(seq 1 100); do P=$(pgrep -f ForkedMain | head -1); [ -n "$P" ] && break; sleep 0.2; done
for i in $(seq 1 50); do W=$(grep -l p2kv-shard-0 /proc/$P/task/*/comm 2>/dev/null | head -1 | cut -d/ -f5); [ -n "$W" ] && break; sleep 0.1; done
renice -n $1 -p $W > /dev/null
python3 samp.py $P $2
wait $M
