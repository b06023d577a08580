#!/usr/bin/env bash
# usage: ab12.sh VARIANT ROUND  (VARIANT: k = main's classes, new = the change's), 12 M records and keys
set -euo pipefail
V=$1; R=$2
cd /work/main
CP="$(sed "s|/work/main/core/target/classes|/tmp/s51/$V/classes/core|" kafka-streams/target/test-cp.txt | sed "s|/tmp/s51/new/classes/core|/tmp/s51/$V/classes/core|"):/tmp/s51/$V/classes/test:/tmp/s51/$V/classes/main"
mkdir -p /tmp/s51/ab/$V-$R
flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
  io.p2kv.kafka.bench.StreamsBenchmark 12000000 12000000 $R-$R /tmp/s51/work \
  -Xmx1g "-Xlog:gc*:file=/tmp/s51/ab/$V-$R/gc-%p.log" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > /tmp/s51/ab/$V-$R/round.log 2>&1
grep -E '^round' /tmp/s51/ab/$V-$R/round.log | tail -1
