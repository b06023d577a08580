#!/bin/bash
# 16 callers' gets, 1 M keys, p2kv and plain RocksDB (same engine factory): with RocksDB's data-block hash index or without
cd /tmp/s41/bh
run() { # tag round prop
  flock -x /tmp/p2kv-cpu.lock java -jar bh.jar 'GetBenchmark.(p2kvGet|rocksGet)$' -t 16 -p keys=1000000 -p shards=1 -p readPath=DIRECT \
    -p separation=default -p distribution=uniform,zipfian -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend "-Dp2kv.exp.blockhash=$3" \
    -prof io.p2kv.bench.CpuProfiler -rf json -rff get-$1-r$2.json > get-$1-r$2.txt 2>&1
}
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then run off $r false; run on $r true; else run on $r true; run off $r false; fi
  echo "round $r done $(date +%T)"
done
