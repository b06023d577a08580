#!/bin/bash
cd /work/main
CP="$(cat kafka-streams/target/test-cp.txt):kafka-streams/target/test-classes:kafka-streams/target/classes"
run() { # tag kind props...
  local tag=$1 kind=$2; shift 2
  rm -rf /tmp/s39/xp/db
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g "$@" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" io.p2kv.kafka.bench.StoreOpsMeasure $kind 2000000 ${KEYS:-1000000} /tmp/s39/xp/db 2>&1 | grep records= | sed "s/^/$tag /"
}
for round in 1 2; do
  run base p2kv
  run rocksdb rocksdb
  run r8000 p2kv -Dxp.records=8000
done
