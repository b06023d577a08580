#!/bin/bash
# per thread group CPU us/op from perf data: $1 data, $2 ops, $3 freq
perf report -i $1 --no-children --sort comm --stdio -g none -F sample,comm 2>/dev/null | grep -v "^#" | grep -v "^$" | awk -v ops=$2 -v f=$3 '
{ n=$1; $1=""; c=$0; g="other";
  if (c ~ /Thread-[0-9]/) g="callers"; else if (c ~ /p2kv-shard/) g="worker"; else if (c ~ /rocksdb/) g="rocksdb-bg"; else if (c ~ /Compiler/) g="jit"; else if (c ~ /GC|G1/) g="gc";
  s[g]+=n; t+=n }
END { for (g in s) printf "%-12s %6.2f us/op\n", g, s[g]/f/ops*1e6; printf "%-12s %6.2f us/op\n", "total", t/f/ops*1e6 }' | sort
