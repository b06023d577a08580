#!/bin/bash
# 3 rounds of run-write-path.sh on the committed jar copy
cd /work/main
for r in 1 2 3; do
  ROUND=$r RAW=/work/exp/s31/wp/raw flock -x /tmp/p2kv-cpu.lock bash -c 'sed "s#^JAR=.*#JAR=/work/exp/s31/wp/benchmarks.jar#" jmh-benchmarks/run-write-path.sh > /tmp/rwp.sh; bash /tmp/rwp.sh' 
done
echo done
