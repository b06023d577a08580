#!/bin/bash
# rounds A..B, alternating order: RocksDB's default arena blocks without the tunable ("off") against
# 8 MiB arena blocks with glibc's transparent huge pages for malloc and a fixed 4 MiB mmap threshold ("thp")
J=~/.m2/repository/org/rocksdb/rocksdbjni/11.8.1/rocksdbjni-11.8.1.jar
cd /tmp/s56/probe
for r in $(seq $1 $2); do
  if [ $((r % 2)) = 1 ]; then order="off thp"; else order="thp off"; fi
  for m in $order; do
    rm -rf /tmp/s56/db; echo -n "round $r $m "
    if [ $m = off ]; then java -Xmx1g -cp $J:. ArenaProbe 0 3000000 /tmp/s56/db
    else GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=4194304 java -Xmx1g -cp $J:. ArenaProbe 8388608 3000000 /tmp/s56/db; fi
  done
done
