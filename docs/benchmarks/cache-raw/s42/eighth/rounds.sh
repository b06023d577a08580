#!/bin/bash
# The second change (a warming cache is judged and bypassed once an eighth is used): new2.jar against new.jar (sampled access recording only)
# and the cache off; the classes' own iteration settings, 16 callers, 1 M keys, 1 shard; 2 rounds, alternating order.
NEW=/tmp/s42/new.jar; NEW2=/tmp/s42/new2.jar
P="-t 16 -prof io.p2kv.bench.CpuProfiler -rf json"
j() { local name=$1 jar=$2; shift 2; flock -x /tmp/p2kv-cpu.lock java -jar $jar "$@" $P -rff $name.json > $name.txt 2>&1; }
g() { j get-$1-r$2 $3 'GetBenchmark.p2kvGet$' -p distribution=uniform,zipfian -p cache=$4 -p readPath=DIRECT -p separation=default -p shards=1; }
m() { j mix-$1-r$2 $3 'MixedBenchmark.p2kv$' -p readPercent=95,50 -p cache=64 -p shards=1; }
g new2 1 $NEW2 64; g new 1 $NEW 64; g off 1 $NEW2 off; m new2 1 $NEW2; m new 1 $NEW; echo "round 1 $(date +%T)"
g off 2 $NEW2 off; g new 2 $NEW 64; g new2 2 $NEW2 64; m new 2 $NEW; m new2 2 $NEW2; echo "round 2 $(date +%T)"
