#!/usr/bin/env bash
# JMH SCAN-10/100 on one shard (default separation): base and new builds against rocksScan, alternating, ROUNDS rounds.
set -uo pipefail
OUT=/work/exp/s33/jmh-scan; mkdir -p $OUT
for r in $(seq 1 ${ROUNDS:-3}); do
  for b in base new; do
    flock -x /tmp/p2kv-cpu.lock java -jar /work/exp/s33/bench-$b.jar 'ScanBenchmark.(p2kvScan|rocksScan)$' -t 1 -p keys=500000 -p length=10,100 -p shards=1 -p partitioning=hash -p separation=default -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff $OUT/$b-r$r.json > $OUT/$b-r$r.txt 2>&1
    echo "$b r$r"; grep -E '^ScanBenchmark' $OUT/$b-r$r.txt
  done
done
