#!/bin/bash
cd /work/main
D=docs/benchmarks/reads-raw/vs-2026-11-23
mkdir -p $D
for part in "S,M,L,SD" "MD,LD,PARETO"; do
  tag=$(echo $part | tr ',' '-')
  flock -x /tmp/p2kv-cpu.lock java -Xms2g -Xmx2g -cp jmh-benchmarks/target/benchmarks.jar io.p2kv.bench.ValueSeparationBenchmark --mixes $part --policies none,sizeAware --repetitions 2 --out $D/VALUE-SEPARATION-$tag.md > $D/run-$tag.log 2>&1
  echo "$(date +%T) vs $part done" >> /tmp/exp27/chain5.log
done
