#!/bin/bash
# A/B of the Kafka store's sort: base (ef61f20) vs new (KeyOrder), interleaved, rounds given as args
set -euo pipefail
cp_of() { # tree out
  echo "$(sed "s|$1/core/target/classes|$2/classes/core|" $1/kafka-streams/target/test-cp.txt):$2/classes/test:$2/classes/main"
}
CPB=$(cp_of /tmp/s47/wt-base /tmp/s47/kab-base)
CPN=$(cp_of /work/main /tmp/s47/kab-new)
for r in "$@"; do
  for v in base new; do
    [ $v = base ] && CP=$CPB || CP=$CPN
    O=/tmp/s47/kab-$v
    flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
      io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 "$r-$r" "$O/work" \
      -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > "$O/round-$r.log" 2>&1
    echo "$v r$r $(grep 'p2kv/rocksdb' $O/round-$r.log)"
  done
done
