#!/bin/bash
# GroupSizeProbe, 16 threads, 512 MiB budget (the JMH suite's), 5 s warm-up, 10 s measured;
# p2kv SYNC and RocksDB sync=true alternating which runs first, ROUNDS rounds; each run under the CPU lock.
ROUNDS=$1
# classpath: core/target/classes and `mvn -o dependency:build-classpath -pl core -Dmdep.outputFile=/tmp/s63/core-cp.txt`; the probes compiled to /tmp/s63/probe
CP="/work/main/core/target/classes:$(cat /tmp/s63/core-cp.txt):/tmp/s63/probe"
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) -eq 1 ]; then order="p2kv rocksdb"; else order="rocksdb p2kv"; fi
  for m in $order; do
    d=/tmp/s63/groups-db-$m; rm -rf $d
    echo "round $r $m"
    flock -x /tmp/p2kv-cpu.lock java -Xmx1g -cp "$CP" GroupSizeProbe $m 16 5 10 536870912 $d 2>&1 | grep -v "SLF4J\|INFO"
    rm -rf $d
  done
done
