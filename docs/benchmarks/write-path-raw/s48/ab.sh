#!/bin/bash
# A/B of the sole-put fast path: base (main 817d063) vs sole, with plain RocksDB, 1 and 8 callers, interleaved
cd /tmp/s48/ab
J="-f 1 -wi 1 -w 2 -i 4 -r 2 -p valueBytes=112 -p durability=WAL"
for r in "$@"; do
  for t in 1 8; do
    for v in base sole rocks; do
      if [ $v = rocks ]; then B="RocksDbPutBenchmark -p baseline=rocksdb"; JAR=/tmp/s48/base.jar; else B="PutBenchmark.syncPut$ -p shards=1 -p maxBatch=128"; JAR=/tmp/s48/$v.jar; fi
      flock -x /tmp/p2kv-cpu.lock java -jar $JAR $B -t $t $J -rf json -rff $v-t$t-r$r.json > $v-t$t-r$r.log 2>&1
      echo "r$r t$t $v $(python3 -c "import json;d=json.load(open('$v-t$t-r$r.json'));print(round(d[0]['primaryMetric']['score']))")"
    done
  done
done
