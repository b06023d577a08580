#!/bin/bash
# The fill's exact-weight read (stop 43): old.jar = main at 3413530 (stop 42's final code), new.jar = the fix. Issue 15's cache
# benchmarks with the cache on (64 MiB), the classes' own iteration settings, 16 callers; 2 rounds, alternating order.
OLD=/tmp/s42/new2.jar; NEW=/tmp/s43/new.jar
P="-t 16 -prof io.p2kv.bench.CpuProfiler -rf json"
j() { local name=$1 jar=$2; shift 2; flock -x /tmp/p2kv-cpu.lock java -jar $jar "$@" $P -rff $name.json > $name.txt 2>&1; }
g() { j get-$1-r$2 $3 'GetBenchmark.p2kvGet$' -p distribution=zipfian,uniform -p cache=64 -p readPath=DIRECT -p separation=default -p shards=1; }
m() { j mix-$1-r$2 $3 'MixedBenchmark.p2kv$' -p readPercent=95,50 -p cache=64 -p shards=1; }
g new 1 $NEW; g old 1 $OLD; m new 1 $NEW; m old 1 $OLD; echo "round 1 $(date +%T)"
g old 2 $OLD; g new 2 $NEW; m old 2 $OLD; m new 2 $NEW; echo "round 2 $(date +%T)"
