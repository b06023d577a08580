#!/bin/bash
# issue 15, stop 34: YCSB 128 B records (2 M), 32 threads, p2kv defaults with the value cache (128 MiB of 512) and without, and RocksDB; 2 rounds.
for r in 1 2; do
  BUILD=new2 THREADS=32 SIZE=" " OUT=/work/exp/s34/ycsb-cache-r$r VARIANTS="cache128=p2kv.cachemb=128;nocache=" PHASES="b c d e" /work/exp/s34/seq.sh > /work/exp/s34/ycsb-cache-r$r.log 2>&1
done
echo done > /work/exp/s34/YCDONE
