#!/usr/bin/env bash
# CPU per scan (io.p2kv.bench.CpuProfiler): f4b6805 (bench-base) vs the one-shard paths (bench-new2), one shard, default separation, 2 alternating rounds.
set -uo pipefail
OUT=/work/exp/s33/jmh-cpu; mkdir -p $OUT
for r in 1 2; do
  for b in base new2; do
    flock -x /tmp/p2kv-cpu.lock java -jar /work/exp/s33/bench-$b.jar 'ScanBenchmark.(p2kvScan|rocksScan)$' -t 1 -p keys=500000 -p length=100,1000 -p shards=1 -p partitioning=hash -p separation=default -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff $OUT/$b-r$r.json > $OUT/$b-r$r.txt 2>&1
    echo "$b r$r"; grep -E '^ScanBenchmark' $OUT/$b-r$r.txt
  done
done
