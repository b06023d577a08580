#!/bin/bash
cd /work/exp
REC=${REC:-2000000}; KEYS=${KEYS:-1000000}
for r in "$@"; do
  for v in def arena; do
    if [ $v = arena ]; then E="-Dp2kv.exp.arena=$((34<<20))"; else E=""; fi
    OUT=/tmp/s52/ke TAG=-a$v EXTRA="$E" /tmp/s52/mem/run12.sh $r $REC $KEYS > /dev/null 2>&1
    f=/tmp/s52/mem/round-a$v-$r-$REC.log
    echo "$v $r $(grep -E 'p2kv/rocksdb' $f)"
  done
done
