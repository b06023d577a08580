#!/bin/bash
# ab.sh NAME ROUNDS JAR1 JAR2 -- JMH-ARGS : interleaved A/B, order swapped each round; JSON per run in raw/NAME-<jar>-r<k>.json
NAME=$1; ROUNDS=$2; A=$3; B=$4; shift 5
mkdir -p raw
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) = 1 ]; then order="$A $B"; else order="$B $A"; fi
  for j in $order; do
    tag=$(basename $j .jar)
    java -jar $j "$@" -prof io.p2kv.bench.CpuProfiler -rf json -rff raw/$NAME-$tag-r$r.json > raw/$NAME-$tag-r$r.log 2>&1
    echo "$(date +%T) done $NAME $tag r$r load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
