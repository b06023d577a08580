#!/usr/bin/env bash
cd /work/main; J=jmh-benchmarks/target/benchmarks.jar; T=${T:-1}; K=${K:-20000}
for r in 1 2; do for b in p2kvGet rocksGet; do
  java -jar $J "GetBenchmark.$b\$" -t $T -p keys=$K -p shards=1 -p readPath=DIRECT -p separation=default -p distribution=uniform \
    -f 1 -wi 1 -w 3 -i 3 -r 3 -prof io.p2kv.bench.CpuProfiler -rf json -rff /tmp/exp/gs-t$T-k$K-$b-r$r.json > /tmp/exp/gs-t$T-k$K-$b-r$r.log 2>&1
  echo "r$r $b $(grep -E "^GetBenchmark.$b " /tmp/exp/gs-t$T-k$K-$b-r$r.log | awk '{print $(NF-3)}') cpu/op $(grep -E "^GetBenchmark.$b:cpu.ns/op" /tmp/exp/gs-t$T-k$K-$b-r$r.log | awk '{print $(NF-3)}')"
done; done
