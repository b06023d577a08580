#!/bin/bash
# The lone WAL caller, p2kv / RocksDB, main's jar against stop 48's (3e1b8d2), alternating.
for r in 1 2 3 4; do
  if [ $((r % 2)) = 1 ]; then order="main s48"; else order="s48 main"; fi
  for j in $order; do
    jar=/tmp/s61/benchmarks.jar; [ $j = s48 ] && jar=/tmp/s61/benchmarks-48.jar
    flock -x /tmp/p2kv-cpu.lock java -jar $jar 'PutBenchmark.syncPut$|RocksDbPutBenchmark.put$' -t 1 -f 2 -wi 2 -w 2 -i 5 -r 2 \
      -p shards=1 -p maxBatch=128 -p valueBytes=112 -p baseline=rocksdb -p durability=WAL \
      -rf json -rff /tmp/s61/t1/ab-$j-r$r.json > /tmp/s61/t1/ab-$j-r$r.log 2>&1
    p=$(grep -E "^PutBenchmark.syncPut " /tmp/s61/t1/ab-$j-r$r.log | awk '{print $(NF-3)}')
    b=$(grep -E "^RocksDbPutBenchmark.put " /tmp/s61/t1/ab-$j-r$r.log | awk '{print $(NF-3)}')
    echo "r$r $j p2kv=$p rocksdb=$b ratio=$(python3 -c "print(f'{$p/$b:.3f}')")" >> /tmp/s61/t1/ab.txt
  done
done
