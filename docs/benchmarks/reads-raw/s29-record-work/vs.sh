#!/bin/bash
# VS benchmark: record-cost experiment. args: tag recordBytes mixes
cd /work/wt-vsexp
flock -x /tmp/p2kv-cpu.lock java -Xms2g -Xmx2g -Dp2kv.exp.recordBytes=$2 -cp /tmp/s29/bench-exp.jar io.p2kv.bench.ValueSeparationBenchmark --mixes $3 --policies none,sizeAware --repetitions 2 > /tmp/s29/vs-$1.log 2>&1
