#!/bin/bash
# Gets on a compacted store, main vs new alternating, 3 rounds (stop 60)
IT="-f 1 -wi 2 -w 2 -i 4 -r 2"
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="new main"; else order="main new"; fi
  for v in $order; do
    flock -x /tmp/p2kv-cpu.lock java -jar /tmp/s60/bench-$v.jar 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=1000000 -p shards=1 -p readPath=DIRECT -p separation=default -p distribution=uniform,zipfian $IT -rf json -rff /tmp/s60/ab/get3-$v-$r.json > /tmp/s60/ab/get3-$v-$r.txt 2>&1
  done
done
