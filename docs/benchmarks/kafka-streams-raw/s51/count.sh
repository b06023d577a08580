#!/usr/bin/env bash
# usage: count.sh VARIANT: p2kv alone, 12 M records; each restore write's record count goes to /tmp/s51/count/VARIANT.txt
set -euo pipefail
V=$1
cd /work/main
CP="$(sed "s|/work/main/core/target/classes|/tmp/s51/$V/classes/core|" kafka-streams/target/test-cp.txt):/tmp/s51/$V/classes/test:/tmp/s51/$V/classes/main"
rm -f /tmp/s51/count/$V.txt
flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dbench.modes=p2kv -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
  io.p2kv.kafka.bench.StreamsBenchmark 12000000 12000000 1-1 /tmp/s51/work \
  -Xmx1g -Dbench.countLoads=/tmp/s51/count/$V.txt -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > /tmp/s51/count/$V.log 2>&1
python3 -c "
import statistics
n=[int(x) for x in open('/tmp/s51/count/$V.txt')]
loads=[x for x in n if x>=4096]
print('$V', 'writes', len(n), 'of them loads', len(loads), 'records', sum(n), 'in loads', sum(loads), 'median load', statistics.median(loads) if loads else 0, 'median write', statistics.median(n))
"
grep RESULT /tmp/s51/count/$V.log | grep -o 'restoreRecordsPerSec=[0-9]*\|restoreHeapCommittedKb=[0-9]*'
