#!/bin/bash
# issue 15, stop 28: GetBenchmark at steady state (20 s of warm-up per fork), final code (ebd449e)
flock -x /tmp/p2kv-cpu.lock java -jar /tmp/c15/final.jar 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p distribution=uniform,zipfian -p shards=1 -p readPath=DIRECT \
  -p separation=default -p cache=off,128 -f 3 -wi 4 -w 5 -i 3 -r 2 -rf json -rff /tmp/c15/r3/getwarm.json > /tmp/c15/r3/getwarm.txt 2>&1
