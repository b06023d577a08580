#!/bin/bash
# 256 virtual threads sync puts: the wake-up tree (default) against the worker waking every caller of a run
# itself (-Dp2kv.exp.vtflat=true); plus RocksDB; rounds in rotating order. JDK 25.
cd /tmp/s41/vt
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
run() { # tag round extra-jvm-arg target
  flock -x /tmp/p2kv-cpu.lock $J25 -jar flat.jar VirtualThreadPutBenchmark -p vthreads=256 -p target=$4 -jvmArgsAppend "$3" \
    -f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler -rf json -rff vt2-$1-r$2.json > vt2-$1-r$2.txt 2>&1
}
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="base flat"; else order="flat base"; fi
  for t in $order; do
    if [ $t = base ]; then run base $r -Dp2kv.exp.vtflat=false p2kv; else run flat $r -Dp2kv.exp.vtflat=true p2kv; fi
  done
  run rocksdb $r -Dp2kv.exp.vtflat=false rocksdb
  echo "round $r done $(date +%T)"
done
