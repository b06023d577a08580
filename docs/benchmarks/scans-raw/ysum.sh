#!/bin/bash
# ysum.sh DIR... : per phase, p2kv and RocksDB throughput, ratio, mean latencies
for d in "$@"; do
  for f in $d/p2kv-t*-*-r*.txt; do
    b=$(basename $f); r=$d/rocksdb-${b#p2kv-}
    pt=$(grep -m1 'OVERALL\], Throughput' $f | awk -F', ' '{print $3}'); rt=$(grep -m1 'OVERALL\], Throughput' $r | awk -F', ' '{print $3}')
    lat() { grep -h 'AverageLatency' $1 | grep -v CLEANUP | awk -F', ' '{printf "%s %.0f ", $1, $3}'; }
    printf "%-28s %-22s p2kv %8.0f rocksdb %8.0f ratio %.2f | p2kv %s| rocksdb %s\n" "$(basename $d)" "${b#p2kv-}" "$pt" "$rt" "$(echo "$pt / $rt" | bc -l)" "$(lat $f)" "$(lat $r)"
  done
done
