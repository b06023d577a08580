#!/usr/bin/env bash
# usage: ab.sh VARIANT ROUND RECORDS KEYS OUTDIR (VARIANT: k = main, new = the change)
set -euo pipefail
V=$1; R=$2
cd /work/main
CP="$(sed "s|/work/main/core/target/classes|/tmp/s51/$V/classes/core|" kafka-streams/target/test-cp.txt | sed "s|/tmp/s51/new/classes/core|/tmp/s51/$V/classes/core|"):/tmp/s51/$V/classes/test:/tmp/s51/$V/classes/main"
mkdir -p $5/$V-$R
flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP" \
  io.p2kv.kafka.bench.StreamsBenchmark $3 $4 $R-$R /tmp/s51/work \
  -Xmx1g "-Xlog:gc*:file=$5/$V-$R/gc-%p.log" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn > $5/$V-$R/round.log 2>&1
grep -E '^round' $5/$V-$R/round.log | tail -1
