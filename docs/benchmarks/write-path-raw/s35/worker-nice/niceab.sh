#!/usr/bin/env bash
cd /work/main; J=jmh-benchmarks/target/benchmarks.jar
B=${B:-'PutBenchmark.asyncPutCallback$'}
for r in 1 2 3; do
  for mode in base nice; do
    if [ $mode = nice ]; then NICE=${NICE:--10} /tmp/exp/renice.sh & RP=$!; fi
    java -jar $J "$B" -t 16 -p shards=1 -p maxBatch=32 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 3 -i 3 -r 3 -prof io.p2kv.bench.CpuProfiler > /tmp/exp/nice-$TAG-$mode-r$r.log 2>&1
    [ $mode = nice ] && kill $RP
    echo "r$r $mode $(grep -E '^PutBenchmark\.[a-zA-Z]+ ' /tmp/exp/nice-$TAG-$mode-r$r.log | awk '{print $(NF-3)}')"
  done
done
