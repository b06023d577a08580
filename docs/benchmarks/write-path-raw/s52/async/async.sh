#!/bin/bash
# usage: async.sh ROUND VARIANT...
J=/tmp/s52/exp.jar
r=$1; shift
mkdir -p /tmp/s52/async
for v in "$@"; do
  a="-Dp2kv.exp.bottom=$v"
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'PutBenchmark.asyncPut$' -t 16 -p shards=1 -p maxBatch=128 -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend "$a" > /tmp/s52/async/$v-$r.log 2>&1
  flock -x /tmp/p2kv-cpu.lock java -jar $J 'BatchLimitBenchmark' -p valueBytes=112 -p durability=WAL -f 1 -wi 1 -w 2 -i 3 -r 2 -jvmArgsAppend "$a" > /tmp/s52/async/limit-$v-$r.log 2>&1
  p=$(grep -E '^PutBenchmark.asyncPut ' /tmp/s52/async/$v-$r.log | awk '{print $(NF-3)}')
  l=$(grep -E '^BatchLimitBenchmark' /tmp/s52/async/limit-$v-$r.log | awk '{print $(NF-3)}' | head -1)
  echo "$v $r async $p limit $l ratio $(python3 -c "print(round($p/$l,3))")"
done
