#!/bin/bash
# Uniform and Zipfian gets with the cache (64 MiB) and off: old.jar (3413530), new.jar (49367b4), new2.jar (one call site of fillNow); 2 rounds rotating.
P="-t 16 -prof io.p2kv.bench.CpuProfiler -rf json"
j() { local name=$1 jar=$2; flock -x /tmp/p2kv-cpu.lock java -jar $jar 'GetBenchmark.p2kvGet$' -p distribution=uniform,zipfian -p cache=off,64 -p readPath=DIRECT -p separation=default -p shards=1 $P -rff $name.json > $name.txt 2>&1; }
j new2-r1 /tmp/s43/new2.jar; j old-r1 /tmp/s42/new2.jar; j new-r1 /tmp/s43/new.jar
j old-r2 /tmp/s42/new2.jar; j new-r2 /tmp/s43/new.jar; j new2-r2 /tmp/s43/new2.jar
echo "done $(date +%T)"
