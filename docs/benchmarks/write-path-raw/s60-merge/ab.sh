#!/bin/bash
# A/B of stop 60's memtables merged at flush: main (458bcb5) vs new, same JMH settings.
cd /work/main
IT="-f 1 -wi 1 -w 2 -i 3 -r 2"
for r in ${ROUNDS:-1 2}; do
  for v in ${VERSIONS:-main new}; do
    JAR=/tmp/s60/bench-$v.jar
    ROUND=$v-$r RAW=/tmp/s60/ab/wp JAR=$JAR flock -x /tmp/p2kv-cpu.lock jmh-benchmarks/run-write-path.sh > /tmp/s60/ab/wp-$v-$r.txt 2>&1
    flock -x /tmp/p2kv-cpu.lock java -jar $JAR 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=1000000 -p shards=1 -p readPath=DIRECT -p distribution=uniform,zipfian $IT -rf json -rff /tmp/s60/ab/get-$v-$r.json > /tmp/s60/ab/get-$v-$r.txt 2>&1
    flock -x /tmp/p2kv-cpu.lock java -jar $JAR 'MixedBenchmark' -t 16 -p keys=1000000 -p shards=1 -p readPercent=50,95 $IT -rf json -rff /tmp/s60/ab/mixed-$v-$r.json > /tmp/s60/ab/mixed-$v-$r.txt 2>&1
    flock -x /tmp/p2kv-cpu.lock java -jar $JAR 'ScanBenchmark.(p2kvScan|rocksScan)$' -t 1 -p keys=500000 -p length=100 -p shards=1 -p partitioning=hash -f 1 -wi 3 -w 2 -i 3 -r 2 -rf json -rff /tmp/s60/ab/scan-$v-$r.json > /tmp/s60/ab/scan-$v-$r.txt 2>&1
  done
done
