#!/bin/bash
# Issue 15 JMH targets on stop 43 code (new2.jar: 49367b4 with one call site of fillNow), the classes own
# iteration settings (1 fork, 1 x 3 s warm-up, 3 x 3 s), 16 callers, 1 M keys, 1 shard: cache 64 MiB and off, and plain RocksDB; 3 rounds, rotating order.
JAR=/tmp/s43/new2.jar
P="-t 16 -prof io.p2kv.bench.CpuProfiler -rf json"
j() { local name=$1; shift; flock -x /tmp/p2kv-cpu.lock java -jar $JAR "$@" $P -rff $name.json > $name.txt 2>&1; }
gp() { j get-new-r$1 'GetBenchmark.p2kvGet$' -p distribution=zipfian,uniform -p cache=off,64 -p readPath=DIRECT -p separation=default -p shards=1; }
gr() { j get-rocks-r$1 'GetBenchmark.rocksGet$' -p distribution=zipfian,uniform; }
mp() { j mix-new-r$1 'MixedBenchmark.p2kv$' -p readPercent=95,50 -p cache=off,64 -p shards=1; }
mr() { j mix-rocks-r$1 'MixedBenchmark.rocksdb$' -p readPercent=95,50; }
gp 1; gr 1; mp 1; mr 1; echo "round 1 $(date +%T)"
gr 2; gp 2; mr 2; mp 2; echo "round 2 $(date +%T)"
gp 3; gr 3; mp 3; mr 3; echo "round 3 $(date +%T)"
