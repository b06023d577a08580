#!/usr/bin/env bash
# Blob cache sized at open (stop 32): YCSB C on a store larger than the block cache, p2kv before
# the change (AB/base), after it (AB/new) and the plain RocksDB binding, alternating, one shared
# store per binding loaded once. AB/{base,new} each hold p2kv-ycsb-binding.jar and lib/ copied
# from ycsb-binding/target of the two builds (the RocksDB binding runs from base). Each command
# ran under the exclusive CPU lock (flock -x /tmp/p2kv-cpu.lock).
#
#   AB=/path/to/ab RECORDS=5000000 FL=96 D=/tmp/s32big2 ./run.sh load
#   AB=... RECORDS=5000000 FL=96 D=/tmp/s32big2 VARIANTS="base new rocks" ROUNDS=3 \
#     EXTRA="-p requestdistribution=uniform" ./run.sh c          # rounds 1-3 (uniform)
#   AB=... RECORDS=5000000 FL=96 D=/tmp/s32big2 VARIANTS="base new rocks" START=4 ROUNDS=5 ./run.sh c   # rounds 4-5 (Zipfian)
set -u
ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
W=$ROOT/ycsb-binding/workloads
AB=${AB:?set AB to the directory holding base/ and new/}
P="p2kv.shards=1 p2kv.readpath=direct p2kv.maxbatch=32 p2kv.sync=false p2kv.memorybudgetmb=512"
props() { for p in $P "$@"; do echo -p "$p"; done; }
SIZE="-p recordcount=${RECORDS:-5000000} -p fieldlength=${FL:-96}"
D=${D:-/tmp/s32big2}
case ${1:-c} in
  load)
    rm -rf "$D"; mkdir -p "$D"
    CP="$AB/base/p2kv-ycsb-binding.jar:$AB/base/lib/*"
    java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -load -db io.p2kv.ycsb.P2kvYcsbClient -P $W/p2kvs-load -threads 8 -p p2kv.dir=$D/p2kv $(props) $SIZE > big-load-p2kv.txt 2>&1
    java -Xms1g -Xmx1g -cp "$CP" site.ycsb.Client -load -db io.p2kv.ycsb.RocksDbYcsbClient -P $W/p2kvs-load -threads 8 -p p2kv.dir=$D/rocks $(props) $SIZE > big-load-rocks.txt 2>&1
    java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle io.p2kv.ycsb.P2kvYcsbClient p2kv.dir=$D/p2kv $P 2>&1 | grep settled
    java -Xms1g -Xmx1g -cp "$CP" io.p2kv.ycsb.Settle io.p2kv.ycsb.RocksDbYcsbClient p2kv.dir=$D/rocks $P 2>&1 | grep settled
    ;;
  c)
    for r in $(seq ${START:-1} ${ROUNDS:-3}); do
      for v in ${VARIANTS:-base new rocks}; do
        case $v in
          rocks) db=io.p2kv.ycsb.RocksDbYcsbClient; dir=$D/rocks; jar=base;;
          *) db=io.p2kv.ycsb.P2kvYcsbClient; dir=$D/p2kv; jar=$v;;
        esac
        f=big-c-$v-r$r.txt
        java -Xms1g -Xmx1g -cp "$AB/$jar/p2kv-ycsb-binding.jar:$AB/$jar/lib/*" site.ycsb.Client -t -db $db -P $W/p2kvs-c -threads 8 \
          -p operationcount=${OPS:-2000000} ${EXTRA:-} -p p2kv.dir=$dir $(props) $SIZE > $f 2>&1
        echo "c $v r$r $(grep '^\[OVERALL\], Throughput' $f | awk -F', ' '{printf "%.0f", $3}') read-avg $(grep '^\[READ\], AverageLatency' $f | awk -F', ' '{print $3}')"
      done
    done
    ;;
esac
