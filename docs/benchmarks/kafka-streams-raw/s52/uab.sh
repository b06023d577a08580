#!/bin/bash
cd /work/exp
REC=${REC:-12000000}; KEYS=${KEYS:-12000000}
for r in "$@"; do
  for v in lvl uni; do
    if [ $v = uni ]; then E="-Dp2kv.exp.kstyle=universal"; else E=""; fi
    OUT=/tmp/s52/kd TAG=-$v EXTRA="$E" /tmp/s52/mem/run12.sh $r $REC $KEYS > /dev/null 2>&1
    f=/tmp/s52/mem/round-$v-$r-$REC.log
    echo "$v $r $(grep -E 'p2kv/rocksdb' $f) | p2kv $(grep -E '^p2kv RESULT process' $f | grep -oE 'rocksdbBackground=[0-9.]+|processCpuUs.total=[0-9.]+|p2kvWorker=[0-9.]+|stream=[0-9.]+' | paste -sd' ')"
  done
done
