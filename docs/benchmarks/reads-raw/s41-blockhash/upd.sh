#!/bin/bash
# StoreOpsMeasure update mode only, hash index on/off alternating, 4 more rounds (r4-r7)
cd /tmp/s41/bh
CP="$(cat cp.txt)"
run() { # tag round prop
  rm -rf /tmp/s41/bh/work; mkdir -p /tmp/s41/bh/work
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dp2kv.exp.blockhash=$3 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" \
    io.p2kv.kafka.bench.StoreOpsMeasure p2kv 2000000 1000000 /tmp/s41/bh/work update > store-$1-update-r$2.txt 2>&1
}
for r in 4 5 6 7; do
  if [ $((r % 2)) = 0 ]; then run on $r true; run off $r false; else run off $r false; run on $r true; fi
done
