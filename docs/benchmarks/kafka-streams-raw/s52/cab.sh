#!/bin/bash
# compression A/B at 12M: rounds R in order; variant none / lz4 (the module's current)
cd /work/exp
for r in "$@"; do
  for v in lz4 none; do
    if [ $v = none ]; then E="-Dp2kv.exp.kcompress=none"; else E=""; fi
    OUT=/tmp/s52/kc TAG=-$v EXTRA="$E" /tmp/s52/mem/run12.sh $r 12000000 12000000 > /dev/null 2>&1
    echo "$v $r $(grep -E 'p2kv/rocksdb' /tmp/s52/mem/round-$v-$r-12000000.log)"
  done
done
