#!/bin/bash
# usage: run.sh BENCH MB TAG
rm -f snap-$3-*
java -jar /work/main/jmh-benchmarks/target/benchmarks.jar "PutBenchmark.$1\$" -t 16 -p shards=1 -p maxBatch=$2 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 5 -r 2 -prof io.p2kv.bench.CpuProfiler > jmh-$3.txt 2>&1 &
M=$!
for i in $(seq 1 100); do P=$(pgrep -f ForkedMain | head -1); [ -n "$P" ] && break; sleep 0.2; done
python3 samp.py $P $3
wait $M
