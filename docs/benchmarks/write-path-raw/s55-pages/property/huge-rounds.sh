#!/bin/bash
# A/B: memtable arenas on 2 MiB huge pages (memtable_huge_page_size through a temporary property in
# /tmp/s55/wt's build; applies to p2kv and to the RocksDB baselines alike, as they share the factory)
# rounds A..B; needs vm.nr_hugepages set beforehand.
cd /tmp/s55/wt
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
O=/tmp/s55/huge; mkdir -p $O
for r in $(seq $1 $2); do
  case $((r % 3)) in 1) order="off huge thp";; 2) order="huge thp off";; 0) order="thp off huge";; esac
  flock -x /tmp/p2kv-cpu.lock bash -c "
  for m in $order; do
    T=; if [ \$m = huge ]; then A=-Dp2kv.exp.hugePage=2097152; else A=-Dp2kv.exp.hugePage=0; fi; if [ \$m = thp ]; then T=glibc.malloc.hugetlb=1; fi
    grep -E 'HugePages_Free|AnonHugePages' /proc/meminfo > $O/r$r-\$m.meminfo
    GLIBC_TUNABLES=\$T $J25 -jar jmh-benchmarks/target/benchmarks.jar 'VirtualThreadPutBenchmark.syncPuts\$|BatchLimitBenchmark.writeBatchOf32\$' \
      -t 1 -f 1 -wi 1 -w 2 -i 3 -r 2 -p vthreads=256 -p target=p2kv,rocksdb -p valueBytes=112 -p durability=WAL \
      -jvmArgsAppend \"\$A\" -rf json -rff $O/r$r-\$m.json > $O/r$r-\$m.log 2>&1
    echo round $r \$m; grep -E '^(VirtualThreadPutBenchmark|BatchLimitBenchmark)' $O/r$r-\$m.log
  done"
done
