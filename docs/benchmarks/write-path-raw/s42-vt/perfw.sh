#!/bin/bash
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
$J/java -Xmx2g -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -cp /work/main/jmh-benchmarks/target/benchmarks.jar:. VtStall 512 $1 > out-perf-$1.txt 2>&1 &
P=$!
sleep 4
W=$(grep -l p2kv-shard-0 /proc/$P/task/*/comm | head -1 | cut -d/ -f5)
perf record -F 1999 -g -t $W -o perf-worker-$1.data -- sleep 8 2>perf-rec-$1.err
perf record -F 999 -g -p $P -o perf-all-$1.data -- sleep 2 2>>perf-rec-$1.err
wait $P
