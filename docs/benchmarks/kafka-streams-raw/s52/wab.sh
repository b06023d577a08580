#!/bin/bash
cd /work/exp2
REC=${REC:-12000000}; KEYS=${KEYS:-12000000}
for r in "$@"; do
  for v in 1000 250; do
    OUT=/tmp/s52/kw TAG=-w$v EXTRA="-Dp2kv.exp.wbuf=$v" /tmp/s52/mem/run12.sh $r $REC $KEYS > /dev/null 2>&1
    f=/tmp/s52/mem/round-w$v-$r-$REC.log
    echo "$v $r $(grep -E 'p2kv/rocksdb' $f | cut -c1-120) | p2kv $(grep -E '^p2kv RESULT process' $f | grep -oE 'processHeapCommittedKb=[0-9]+|processAllocBytes.stream=[0-9]+|CpuUs.gc=[0-9.]+|rocksdbBackground=[0-9.]+|p2kvWorker=[0-9.]+|stream=[0-9.]+' | paste -sd' ') | K $(grep -E '^rocksdb RESULT process' $f | grep -oE 'processHeapCommittedKb=[0-9]+|CpuUs.gc=[0-9.]+' | paste -sd' ')"
  done
done
