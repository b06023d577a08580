#!/bin/bash
# A/B of the Kafka store's bottommost compression (zstd: the default; lz4: the hook sets LZ4) on a 12 M-record state; args: rounds
set -euo pipefail
for r in "$@"; do
  if [ $((r % 2)) = 1 ]; then order="zstd lz4"; else order="lz4 zstd"; fi
  for v in $order; do
    O=/tmp/s48/kc/$v
    CP="$(sed "s|/work/main/core/target/classes|$O/classes/core|" /tmp/s48/kb/test-cp.txt):$O/classes/test:$O/classes/main"
    rm -rf $O/work
    flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
      io.p2kv.kafka.bench.StreamsBenchmark 12000000 12000000 "$r-$r" "$O/work" \
      -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > $O/round-$r.log 2>&1
    echo "$v r$r $(grep 'p2kv/rocksdb' $O/round-$r.log)"
  done
done
