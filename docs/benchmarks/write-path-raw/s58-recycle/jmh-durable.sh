#!/bin/bash
# Steady-state durable puts, 16 threads: p2kv syncPut and RocksDB sync=true, old (d780c5d, no recycling) and new jar (SYNC recycles)
# 40 s warm-up so that memtables flush and logs get recycled, then 3 x 5 s.
ROUNDS=$1
J="-w 40s -wi 1 -r 5s -i 3 -f 1 -t 16"
for r in $(seq 1 $ROUNDS); do
  for jar in old new; do
    for b in p2kv rocks; do
      if [ $b = p2kv ]; then sel='PutBenchmark.syncPut$'; p="-p shards=1 -p maxBatch=128 -p valueBytes=112 -p durability=SYNC"; else sel='RocksDbPutBenchmark'; p="-p baseline=rocksdb -p valueBytes=112 -p durability=SYNC"; fi
      echo "== round $r jar $jar $b $(date -u +%H:%M:%S)"
      flock -x /tmp/p2kv-cpu.lock java -jar /tmp/s58/$jar-benchmarks.jar "$sel" $J $p 2>&1 | grep -E "^Benchmark|^(Put|RocksDbPut)Benchmark\." 
    done
  done
done
