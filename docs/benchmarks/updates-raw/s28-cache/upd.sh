#!/bin/bash
# issue 16, stop 28: UpdateBenchmark with and without the value cache (128 MiB), Zipfian, 1 shard, 3 forks
flock -x /tmp/p2kv-cpu.lock java -jar /tmp/c15/final2.jar 'UpdateBenchmark.(p2kvUpdate|rocksdbLocked|p2kvGetPutLocked)$' -t 16 \
  -p distribution=zipfian -p shards=1 -p cache=off,128 -f 3 -wi 1 -w 3 -i 3 -r 2 -rf json -rff /tmp/c15/upd/update.json > /tmp/c15/upd/update.txt 2>&1
