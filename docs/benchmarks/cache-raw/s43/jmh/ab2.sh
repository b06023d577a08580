#!/bin/bash
# ab.sh's mixes, 2 more rounds, and a third round of gets
OLD=/tmp/s42/new2.jar; NEW=/tmp/s43/new.jar
P="-t 16 -prof io.p2kv.bench.CpuProfiler -rf json"
j() { local name=$1 jar=$2; shift 2; flock -x /tmp/p2kv-cpu.lock java -jar $jar "$@" $P -rff $name.json > $name.txt 2>&1; }
g() { j get-$1-r$2 $3 'GetBenchmark.p2kvGet$' -p distribution=zipfian,uniform -p cache=64 -p readPath=DIRECT -p separation=default -p shards=1; }
m() { j mix-$1-r$2 $3 'MixedBenchmark.p2kv$' -p readPercent=95,50 -p cache=64 -p shards=1; }
m new 3 $NEW; m old 3 $OLD; m old 4 $OLD; m new 4 $NEW; g new 3 $NEW; g old 3 $OLD; echo "done $(date +%T)"
