#!/bin/bash
# 3 rounds of run-write-path.sh on a copy of the benchmarks jar of 7c72652. As run, this script
# rewrote the script's JAR= line with sed (run-write-path.sh had no JAR override then); the same
# rounds with the override it has now:
for r in 1 2 3; do
  JAR=/work/exp/s31/wp/benchmarks.jar ROUND=$r RAW=/work/exp/s31/wp/raw flock -x /tmp/p2kv-cpu.lock jmh-benchmarks/run-write-path.sh
done
