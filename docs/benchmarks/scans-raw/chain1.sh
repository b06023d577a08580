#!/bin/bash
cd /tmp/scans
J=/tmp/scans/after.jar
SCAN=('ScanBenchmark.(p2kvScan|rocksScan)$' -t 1 -p keys=500000 -p length=100 -p shards=1,4 -p partitioning=hash -p separation=default -f 1 -wi 2 -w 2 -i 3 -r 2)
GET=('GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=1000000 -p shards=1 -p readPath=DIRECT -p distribution=uniform,zipfian -p separation=default -f 1 -wi 2 -w 2 -i 3 -r 2)
for r in 1 2 3; do
  ./jmh.sh scanD after $r $J "${SCAN[@]}"
  ./jmh.sh getD after $r $J "${GET[@]}"
done
