#!/bin/bash
# GroupSizeProbe, 16 threads, 512 MiB budget, 5 s warm-up, 10 s measured: p2kv with the wake-up
# tree's arity 2 (main's binary tree), 4 and 16 (-Dp2kv.exp.wakeArity, wake-arity.patch), and
# RocksDB sync=true; the order rotates each round; each run under the CPU lock.
ROUNDS=$1
CP="/work/main/core/target/classes:$(cat /tmp/s63/core-cp.txt):/tmp/s63/probe"
run() {
  d=/tmp/s63/arity-db; rm -rf $d
  case $1 in
    rocksdb) flock -x /tmp/p2kv-cpu.lock java -Xmx1g -cp "$CP" GroupSizeProbe rocksdb 16 5 10 536870912 $d ;;
    *) flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dp2kv.exp.wakeArity=$1 -cp "$CP" GroupSizeProbe p2kv 16 5 10 536870912 $d ;;
  esac 2>&1 | grep -v "SLF4J\|INFO" | sed "s/^/arity $1: /"
  rm -rf $d
}
for r in $(seq 1 $ROUNDS); do
  case $((r % 4)) in 1) order="2 4 16 rocksdb";; 2) order="4 16 rocksdb 2";; 3) order="16 rocksdb 2 4";; 0) order="rocksdb 2 4 16";; esac
  echo "round $r: $order"
  for m in $order; do run $m; done
done
