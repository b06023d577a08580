#!/bin/bash
# Readers on the direct path defer to a shard worker with queued requests: 0 = no (main), 1 = Thread.yield() once,
# 2 = parkNanos(1 us) once; MixedBenchmark p2kv, cache off, 16 callers; 3 rounds rotating.
JAR=/tmp/s43/defer.jar
P="-t 16 -prof io.p2kv.bench.CpuProfiler -rf json"
j() { local d=$1 r=$2; flock -x /tmp/p2kv-cpu.lock java -jar $JAR 'MixedBenchmark.p2kv$' -p readPercent=95,50 -p cache=off -p shards=1 -jvmArgsAppend -Dp2kv.exp.defer=$d $P -rff mix-d$d-r$r.json > mix-d$d-r$r.txt 2>&1; }
j 0 1; j 1 1; j 2 1; j 1 2; j 2 2; j 0 2; j 2 3; j 0 3; j 1 3; echo "done $(date +%T)"
