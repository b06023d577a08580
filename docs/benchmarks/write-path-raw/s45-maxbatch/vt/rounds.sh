#!/bin/bash
# VirtualThreadPutBenchmark (256 virtual threads, JDK 25): head with maxBatch 32 and 128, the hand-off build with 128, RocksDB; then the batch limit (JDK 17)
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
IT="-f 1 -wi 1 -w 2 -i 3 -r 2 -prof io.p2kv.bench.CpuProfiler"
one() { # name
  case $1 in
    mb32) $J25 -jar /tmp/s45/head.jar 'VirtualThreadPutBenchmark.syncPuts$' -p vthreads=256 -p target=p2kv -p maxBatch=32 $IT ;;
    mb128) $J25 -jar /tmp/s45/head.jar 'VirtualThreadPutBenchmark.syncPuts$' -p vthreads=256 -p target=p2kv -p maxBatch=128 $IT ;;
    handoff128) $J25 -jar /tmp/s45/exp.jar 'VirtualThreadPutBenchmark.syncPuts$' -p vthreads=256 -p target=p2kv -p maxBatch=128 -jvmArgsAppend -Dp2kv.exp.vthandoff=true $IT ;;
    rocksdb) $J25 -jar /tmp/s45/head.jar 'VirtualThreadPutBenchmark.syncPuts$' -p vthreads=256 -p target=rocksdb $IT ;;
    limit) java -jar /tmp/s45/head.jar 'BatchLimitBenchmark.writeBatchOf32$' -p valueBytes=112 -p durability=WAL $IT ;;
  esac
}
names=(mb32 mb128 handoff128 rocksdb limit)
for r in $(seq 1 ${ROUNDS:-3}); do
  for i in 0 1 2 3 4; do
    n=${names[$(( (i + r - 1) % 5 ))]}
    flock -x /tmp/p2kv-cpu.lock bash -c "$(declare -f one); IT='$IT'; J25=$J25; one $n" > $n-r$r.log 2>&1
    echo "r$r $n $(grep -E '^(VirtualThreadPutBenchmark|BatchLimitBenchmark)\.[a-zA-Z0-9]+ ' $n-r$r.log | awk '{print $(NF-3)}') $(grep -h '# p2kv: mean write batch' $n-r$r.log | tail -1)"
  done
done
