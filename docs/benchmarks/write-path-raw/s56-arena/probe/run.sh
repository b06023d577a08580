#!/bin/bash
# rounds A..B of: arena {0 (RocksDB's default), 8 MiB} x GLIBC_TUNABLES {none, hugetlb=1}
J=~/.m2/repository/org/rocksdb/rocksdbjni/11.8.1/rocksdbjni-11.8.1.jar
cd /tmp/s56/probe
for r in $(seq $1 $2); do
  for m in "0 -" "8388608 -" "0 glibc.malloc.hugetlb=1" "8388608 glibc.malloc.hugetlb=1" "8388608 glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=4194304"; do
    set -- $m; T=$2; [ "$T" = - ] && T=
    rm -rf /tmp/s56/db; echo -n "round $r tunable=${T:-none} "
    GLIBC_TUNABLES=$T java -Xmx1g -cp $J:. ArenaProbe $1 3000000 /tmp/s56/db
  done
done
