#!/usr/bin/env bash
# CutBenchmark, checkpoint and snapshot cutters, before (8947208) and after (164ef71) the hasWork fix, alternating, one fork each.
cd /work/exp/s32
for r in 1 2; do
  for v in base new; do
    case $v in base) jar=/tmp/bis-a/jmh-benchmarks/target/benchmarks.jar;; new) jar=/work/main/jmh-benchmarks/target/benchmarks.jar;; esac
    java -jar $jar CutBenchmark -p cut=snapshot,checkpoint -f 1 -wi 1 -w 3 -i 3 -r 3 -rf json -rff cuts-$v-r$r.json > cuts-$v-r$r.log 2>&1
    echo "$v r$r done"
  done
done
