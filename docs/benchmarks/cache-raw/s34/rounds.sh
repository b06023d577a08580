#!/bin/bash
# Two more rounds of the 95/5 mix, RocksDB first then p2kv (cache 128 MiB and off), each its own JMH command under the exclusive CPU lock.
J=/work/exp/s34/mix/benchmarks.jar; O=/work/exp/s34/mix
for r in 2 3; do
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'MixedBenchmark.rocksdb$' -t 16 -p readPercent=95 -f 3 -wi 1 -w 3 -i 3 -r 2 -rf json -rff $O/mixed95-rocksdb-r$r.json > $O/mixed95-rocksdb-r$r.txt 2>&1
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'MixedBenchmark.p2kv$' -t 16 -p readPercent=95 -p shards=1 -p cache=128,off -f 3 -wi 1 -w 3 -i 3 -r 2 -rf json -rff $O/mixed95-p2kv-r$r.json > $O/mixed95-p2kv-r$r.txt 2>&1
done
echo done > $O/DONE
