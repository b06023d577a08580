#!/bin/bash
# 256 virtual threads' sync puts: callers that may take the worker role (default) against callers that always
# hand off to the worker thread (-Dp2kv.exp.vthandoff=true); plus RocksDB; rounds in rotating order. JDK 25.
cd /tmp/s41/vt
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
run() { # tag round extra-jvm-arg target
  flock -x /tmp/p2kv-cpu.lock $J25 -jar vt.jar VirtualThreadPutBenchmark -p vthreads=256 -p target=$4 -jvmArgsAppend "$3" \
    -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff vt-$1-r$2.json > vt-$1-r$2.txt 2>&1
}
for r in 1 2 3 4; do
  if [ $((r % 2)) = 1 ]; then order="base handoff"; else order="handoff base"; fi
  for t in $order; do
    if [ $t = base ]; then run base $r -Dp2kv.exp.vthandoff=false p2kv; else run handoff $r -Dp2kv.exp.vthandoff=true p2kv; fi
  done
  run rocksdb $r -Dp2kv.exp.vthandoff=false rocksdb
  echo "round $r done $(date +%T)"
done
