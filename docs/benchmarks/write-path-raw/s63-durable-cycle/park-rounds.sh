#!/bin/bash
# GroupSizeProbe, 16 threads, 512 MiB budget, 5 s warm-up, 10 s measured: p2kv as built (base),
# p2kv with -Dp2kv.exp.durableParkAtOnce=true (durable callers park at once), RocksDB sync=true;
# the order rotates each round; each run under the CPU lock.
ROUNDS=$1
# classpath as in rounds.sh; core/target/classes built with park-at-once.patch applied (base and park are the same classes, the property switches it)
CP="/work/main/core/target/classes:$(cat /tmp/s63/core-cp.txt):/tmp/s63/probe"
run() {
  d=/tmp/s63/park-db; rm -rf $d
  case $1 in
    base) flock -x /tmp/p2kv-cpu.lock java -Xmx1g -cp "$CP" GroupSizeProbe p2kv 16 5 10 536870912 $d ;;
    park) flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dp2kv.exp.durableParkAtOnce=true -cp "$CP" GroupSizeProbe p2kv 16 5 10 536870912 $d ;;
    rocksdb) flock -x /tmp/p2kv-cpu.lock java -Xmx1g -cp "$CP" GroupSizeProbe rocksdb 16 5 10 536870912 $d ;;
  esac 2>&1 | grep -v "SLF4J\|INFO" | sed "s/^/$1: /"
  rm -rf $d
}
for r in $(seq 1 $ROUNDS); do
  case $((r % 3)) in 1) order="base park rocksdb";; 2) order="park rocksdb base";; 0) order="rocksdb base park";; esac
  echo "round $r: $order"
  for m in $order; do run $m; done
done
