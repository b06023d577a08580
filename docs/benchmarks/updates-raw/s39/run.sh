#!/bin/bash
# UpdateBenchmark, 3 rounds, jar of 5f1073f (the library code of this stop), as the suite runs it (16 callers, 1 M keys, 1 shard).
for r in 1 2 3; do
  flock -x /tmp/p2kv-cpu.lock java -jar /tmp/s39/jars/new.jar UpdateBenchmark -t 16 -p keys=1000000 -p shards=1 -p distribution=uniform,zipfian \
    -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff round-$r.json > round-$r.log 2>&1
  echo "round $r $(date +%T)"
done
