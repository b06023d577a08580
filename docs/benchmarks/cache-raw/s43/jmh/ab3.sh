#!/bin/bash
# Mixes with the cache off and on (new.jar) beside old.jar with the cache on; 3 rounds, alternating order.
OLD=/tmp/s42/new2.jar; NEW=/tmp/s43/new.jar
P="-t 16 -prof io.p2kv.bench.CpuProfiler -rf json"
j() { local name=$1 jar=$2; shift 2; flock -x /tmp/p2kv-cpu.lock java -jar $jar "$@" $P -rff $name.json > $name.txt 2>&1; }
mn() { j mix3-new-r$1 $NEW 'MixedBenchmark.p2kv$' -p readPercent=95,50 -p cache=off,64 -p shards=1; }
mo() { j mix3-old-r$1 $OLD 'MixedBenchmark.p2kv$' -p readPercent=95,50 -p cache=64 -p shards=1; }
mn 1; mo 1; mo 2; mn 2; mn 3; mo 3; echo "done $(date +%T)"
