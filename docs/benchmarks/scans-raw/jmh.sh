#!/bin/bash
# jmh.sh NAME TAG ROUND JAR JMH-ARGS... : one JMH run under the exclusive lock; JSON + log in /tmp/scans/raw/NAME-TAG-rROUND.*
NAME=$1; TAG=$2; R=$3; JAR=$4; shift 4
mkdir -p /tmp/scans/raw
flock -x /tmp/p2kv-cpu.lock java -jar $JAR "$@" -prof io.p2kv.bench.CpuProfiler -rf json -rff /tmp/scans/raw/$NAME-$TAG-r$R.json > /tmp/scans/raw/$NAME-$TAG-r$R.log 2>&1
echo "$(date +%T) done $NAME $TAG r$R load $(cut -d' ' -f1 /proc/loadavg)"
