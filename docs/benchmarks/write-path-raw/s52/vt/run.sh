#!/bin/bash
# usage: run.sh ROUND VARIANT...   variants: zstd lz4 zstd1 zstdm1
J=/tmp/s52/exp.jar; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
r=$1; shift
for v in "$@"; do
  case $v in
    zstd) a="-Dp2kv.exp.bottom=zstd";; lz4) a="-Dp2kv.exp.bottom=lz4";;
    zstd1) a="-Dp2kv.exp.bottom=zstd -Dp2kv.exp.zstdlevel=1";; zstdm1) a="-Dp2kv.exp.bottom=zstd -Dp2kv.exp.zstdlevel=-1";;
    none) a="-Dp2kv.exp.bottom=none";;
  esac
  flock -x /tmp/p2kv-cpu.lock $J25 -jar $J 'VirtualThreadPutBenchmark.syncPuts$' -p vthreads=256 -p target=p2kv,rocksdb -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend "$a" > /tmp/s52/vt/$v-$r.log 2>&1
  echo "$v $r: $(grep -E '^VirtualThreadPutBenchmark' /tmp/s52/vt/$v-$r.log | awk '{print $3, $(NF-2)}' | tr '\n' ' ')"
done
