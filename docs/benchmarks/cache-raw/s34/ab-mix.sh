#!/bin/bash
# MixedBenchmark 95/5, cache 128 MiB: new (warming check without the eviction lock) vs old, alternating, 3 forks each, 2 rounds.
O=/work/exp/s34/mix/abfill; M="-t 16 -p readPercent=95 -f 3 -wi 1 -w 3 -i 3 -r 2 -p shards=1 -p cache=128"
L="flock -x /tmp/p2kv-cpu.lock"
$L java -jar /work/exp/s34/mix/benchmarks.jar 'MixedBenchmark.p2kv$' $M -rf json -rff $O/mix-old-r3.json > $O/mix-old-r3.txt 2>&1
$L java -jar /work/exp/s34/mix/benchmarks-new.jar 'MixedBenchmark.p2kv$' $M -rf json -rff $O/mix-new-r3.json > $O/mix-new-r3.txt 2>&1
$L java -jar /work/exp/s34/mix/benchmarks-new.jar 'MixedBenchmark.p2kv$' $M -rf json -rff $O/mix-new-r4.json > $O/mix-new-r4.txt 2>&1
$L java -jar /work/exp/s34/mix/benchmarks.jar 'MixedBenchmark.p2kv$' $M -rf json -rff $O/mix-old-r4.json > $O/mix-old-r4.txt 2>&1
echo done > $O/MIXDONE
