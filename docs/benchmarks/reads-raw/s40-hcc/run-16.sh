#!/bin/bash
# LRU (the block cache before) against HyperClockCache (after), same jar, rotating order
J=/tmp/s40/jmh/hcc.jar; OUT=/tmp/s40/jmh/rounds; mkdir -p $OUT
run() { # round variant
  local r=$1 v=$2
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=1000000 -p shards=1 -p readPath=DIRECT -p separation=default -p distribution=uniform,zipfian -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend "-Dp2kv.exp.cache=$v" -rf json -rff $OUT/get16-$v-$r.json > $OUT/get16-$v-$r.log 2>&1
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'GetBenchmark.(p2kvGet|rocksGet)$' -t 1 -p keys=1000000 -p shards=1 -p readPath=DIRECT -p separation=default -p distribution=uniform -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend "-Dp2kv.exp.cache=$v" -rf json -rff $OUT/get1-$v-$r.json > $OUT/get1-$v-$r.log 2>&1
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'ScanBenchmark.(p2kvScan|rocksScan)$' -t 1 -p keys=1000000 -p length=100 -p shards=1 -p partitioning=hash -f 1 -wi 3 -w 2 -i 3 -r 2 -jvmArgsAppend "-Dp2kv.exp.cache=$v" -rf json -rff $OUT/scan-$v-$r.json > $OUT/scan-$v-$r.log 2>&1
}
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then run $r lru; run $r hcc; else run $r hcc; run $r lru; fi
done
