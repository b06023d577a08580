#!/bin/bash
# issue 15's JMH targets on f1f1269 (HyperClockCache block cache on both sides): value cache off and 64 MiB, 3 rounds
cd /tmp/s40/cache
J=b.jar
for r in 1 2 3; do
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=1000000 -p distribution=uniform,zipfian -p shards=1 \
    -p readPath=DIRECT -p separation=default -p cache=off,64 -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff get-r$r.json > get-r$r.txt 2>&1
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'MixedBenchmark' -t 16 -p readPercent=50,95 -p shards=1 -p cache=off,64 \
    -f 1 -wi 1 -w 2 -i 3 -r 2 -rf json -rff mixed-r$r.json > mixed-r$r.txt 2>&1
  echo "round $r done $(date +%T)"
done
