#!/bin/bash
# perf record -a over one StreamsBenchmark round per variant; args: variant round
set -euo pipefail
V=$1; R=$2; O=/tmp/s48/kb/$V
CP="$(sed "s|/work/main/core/target/classes|$O/classes/core|" /tmp/s48/kb/test-cp.txt):$O/classes/test:$O/classes/main"
rm -rf $O/work
flock -x /tmp/p2kv-cpu.lock perf record -a -g -F 499 -o $O/perf-r$R.data -- java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
  io.p2kv.kafka.bench.StreamsBenchmark 2000000 1000000 "$R-$R" "$O/work" \
  -Xmx1g -Djava.library.path=/tmp/s47/so -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > $O/round-$R.log 2>&1
grep 'p2kv/rocksdb' $O/round-$R.log
