#!/bin/bash
# A/B of main's jar with the host's huge-page pool off (vm.nr_hugepages=0) and on (300 pages of 2 MiB):
# p2kv reads the pool at open and puts memtables on it; the RocksDB baselines share the engine factory, so they do too.
# rounds A..B; each round holds the exclusive CPU lock; order alternates.
cd /work/main
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=jmh-benchmarks/target/benchmarks.jar
O=/tmp/s55/pool; mkdir -p $O
IT="-f 1 -wi 1 -w 2 -i 3 -r 2"
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="off pool"; else order="pool off"; fi
  flock -x /tmp/p2kv-cpu.lock bash -c "
  for m in $order; do
    if [ \$m = pool ]; then echo 300 > /proc/sys/vm/nr_hugepages; else echo 0 > /proc/sys/vm/nr_hugepages; fi
    echo round $r \$m \$(grep HugePages_Total /proc/meminfo)
    $J25 -jar $JAR 'VirtualThreadPutBenchmark.syncPuts\$|BatchLimitBenchmark.writeBatchOf32\$' -t 1 $IT -p vthreads=256 -p target=p2kv,rocksdb \
      -p valueBytes=112 -p durability=WAL -rf json -rff $O/vt-r$r-\$m.json > $O/vt-r$r-\$m.log 2>&1
    java -jar $JAR 'PutBenchmark.asyncPutCallback\$|RocksDbPutBenchmark.put\$' -t 16 $IT -p shards=1 -p maxBatch=128 -p valueBytes=112 \
      -p durability=WAL -p baseline=rocksdb-unordered -rf json -rff $O/async-r$r-\$m.json > $O/async-r$r-\$m.log 2>&1
    java -jar $JAR 'PutBenchmark.syncPut\$|RocksDbPutBenchmark.put\$' -t 1 $IT -p shards=1 -p maxBatch=128 -p valueBytes=112 \
      -p durability=WAL -p baseline=rocksdb -rf json -rff $O/t1-r$r-\$m.json > $O/t1-r$r-\$m.log 2>&1
    grep -hE '^(VirtualThreadPutBenchmark|BatchLimitBenchmark|PutBenchmark|RocksDbPutBenchmark)' $O/vt-r$r-\$m.log $O/async-r$r-\$m.log $O/t1-r$r-\$m.log
  done
  echo 0 > /proc/sys/vm/nr_hugepages"
done
