#!/bin/bash
# Issue 15's JMH targets with the classes' own iteration settings (1 fork, 1 x 3 s warm-up, 3 x 3 s), 16 callers, 1 M keys, 1 shard:
# new.jar (sampled access recording) with the cache off and 64 MiB, base.jar (main 0b9860d) with 64 MiB, and plain RocksDB; 3 rounds, rotating order.
NEW=/tmp/s42/new.jar; BASE=/tmp/s42/base.jar
P="-t 16 -prof io.p2kv.bench.CpuProfiler -rf json"
j() { # name jar args...
  local name=$1 jar=$2; shift 2
  flock -x /tmp/p2kv-cpu.lock java -jar $jar "$@" $P -rff $name.json > $name.txt 2>&1
}
gnew() { j get-new-r$1 $NEW 'GetBenchmark.p2kvGet$' -p distribution=zipfian,uniform -p cache=off,64 -p readPath=DIRECT -p separation=default -p shards=1; }
gbase() { j get-base-r$1 $BASE 'GetBenchmark.p2kvGet$' -p distribution=zipfian,uniform -p cache=64 -p readPath=DIRECT -p separation=default -p shards=1; }
grocks() { j get-rocks-r$1 $NEW 'GetBenchmark.rocksGet$' -p distribution=zipfian,uniform; }
mnew() { j mix-new-r$1 $NEW 'MixedBenchmark.p2kv$' -p readPercent=50,95 -p cache=off,64 -p shards=1; }
mbase() { j mix-base-r$1 $BASE 'MixedBenchmark.p2kv$' -p readPercent=50,95 -p cache=64 -p shards=1; }
mrocks() { j mix-rocks-r$1 $NEW 'MixedBenchmark.rocksdb$' -p readPercent=50,95; }
gnew 1; gbase 1; grocks 1; mnew 1; mbase 1; mrocks 1; echo "round 1 $(date +%T)"
grocks 2; gnew 2; gbase 2; mrocks 2; mnew 2; mbase 2; echo "round 2 $(date +%T)"
gbase 3; grocks 3; gnew 3; mbase 3; mrocks 3; mnew 3; echo "round 3 $(date +%T)"
