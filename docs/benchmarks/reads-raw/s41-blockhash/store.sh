#!/bin/bash
# Kafka Streams' store work alone (StoreOpsMeasure, 2 M records over 1 M keys, 32 tasks, 2 threads): p2kv with
# RocksDB's data-block hash index (-Dp2kv.exp.blockhash=true) or without (binary search only), and Kafka's stores.
cd /tmp/s41/bh
CP="$(cat cp.txt)"
run() { # tag round mode store prop
  rm -rf /tmp/s41/bh/work; mkdir -p /tmp/s41/bh/work
  flock -x /tmp/p2kv-cpu.lock java -Xmx1g -Dp2kv.exp.blockhash=$5 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" \
    io.p2kv.kafka.bench.StoreOpsMeasure $4 2000000 1000000 /tmp/s41/bh/work $3 > store-$1-$3-r$2.txt 2>&1
}
for r in 1 2 3; do
  for mode in get update; do
    case $r in
      1) order="off on kafka";; 2) order="on kafka off";; 3) order="kafka off on";;
    esac
    for t in $order; do
      case $t in
        off) run off $r $mode p2kv false;; on) run on $r $mode p2kv true;; kafka) run kafka $r $mode rocksdb false;;
      esac
    done
  done
  echo "round $r done $(date +%T)"
done
