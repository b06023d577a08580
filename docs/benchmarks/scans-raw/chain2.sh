#!/bin/bash
cd /tmp/scans
J=/tmp/scans/after.jar
S=('ScanBenchmark.(p2kvScan|rocksScan)$' -t 1 -p keys=500000 -p length=100 -p shards=1,4 -p partitioning=hash -p separation=default -f 1 -wi 2 -w 2 -i 3 -r 2)
./jmh.sh scanX hcc 1 $J "${S[@]}" -jvmArgsAppend "-Xms1g -Xmx1g -Dp2kv.exp.cache=hcc"
./jmh.sh scanX idxout 1 $J "${S[@]}" -jvmArgsAppend "-Xms1g -Xmx1g -Dp2kv.exp.indexOutOfCache=true"
./jmh.sh scanX lru 1 $J "${S[@]}"
