#!/bin/bash
# rounds A..B, alternating order: RocksDB's default arena blocks without the tunable ("off") against
# 8 MiB arena blocks without the tunable ("a8")
J=~/.m2/repository/org/rocksdb/rocksdbjni/11.8.1/rocksdbjni-11.8.1.jar
cd /tmp/s56/probe
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="off a8"; else order="a8 off"; fi
  for m in $order; do
    rm -rf /tmp/s56/db; echo -n "round $r $m "
    if [ $m = off ]; then java -Xmx1g -cp $J:. ArenaProbe 0 3000000 /tmp/s56/db
    else java -Xmx1g -cp $J:. ArenaProbe 8388608 3000000 /tmp/s56/db; fi
  done
done
