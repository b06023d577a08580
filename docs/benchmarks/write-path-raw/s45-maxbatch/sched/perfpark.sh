#!/bin/bash
java -jar /work/main/jmh-benchmarks/target/benchmarks.jar 'PutBenchmark.asyncPutCallbackParking$' -t 16 -p shards=1 -p maxBatch=$1 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 5 -r 2 -jvmArgsAppend "-Djava.library.path=/tmp/s43/lib -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" > jmh-perf-$1.txt 2>&1 &
M=$!
for i in $(seq 1 100); do P=$(pgrep -f ForkedMain | head -1); [ -n "$P" ] && break; sleep 0.2; done
sleep 4
W=$(grep -l p2kv-shard-0 /proc/$P/task/*/comm | head -1 | cut -d/ -f5)
perf record -F 1999 -g -t $W -o perf-worker-$1.data -- sleep 7 2>perf-rec-$1.err
wait $M
