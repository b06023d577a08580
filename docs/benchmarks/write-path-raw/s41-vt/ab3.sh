#!/bin/bash
# 256 virtual threads' sync puts: the worker polls 50 us (default) or 1 ms before it parks when its queue is empty. JDK 25.
cd /tmp/s41/vt
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
run() { # round yield
  flock -x /tmp/p2kv-cpu.lock $J25 -jar vt.jar VirtualThreadPutBenchmark -p vthreads=256 -p target=p2kv -p yieldWaitNanos=$2 \
    -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff vt3-y$2-r$1.json > vt3-y$2-r$1.txt 2>&1
}
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then run $r 50000; run $r 1000000; else run $r 1000000; run $r 50000; fi
done
