#!/bin/bash
# usage: ab.sh ROUND... : VirtualThreadPutBenchmark p2kv with vthreads 1,32,256 under each VT submit mode (0 default, 1 hand-off, 2 take only when alone), order rotating per round
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in "$@"; do
  case $((r % 3)) in 0) order="0 1 2";; 1) order="1 2 0";; 2) order="2 0 1";; esac
  for m in $order; do
    flock -x /tmp/p2kv-cpu.lock timeout 400 $J -jar /tmp/s50/exp3.jar VirtualThreadPutBenchmark -p vthreads=1,32,256 -p target=p2kv -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend -Dp2kv.exp.vtmode=$m -prof io.p2kv.bench.CpuProfiler > m$m-r$r.log 2>&1
    echo "round $r mode $m: $(grep -E 'syncPuts +128' m$m-r$r.log | awk '{printf "%s=%.0f ", $4, $(NF-2)}') $(grep 'mean write batch' m$m-r$r.log | awk '{printf "batch=%s ", $6}')"
  done
done
