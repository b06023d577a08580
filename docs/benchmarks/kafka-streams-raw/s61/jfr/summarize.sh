#!/bin/bash
# The summaries in this directory, from the four recordings (DIR/{rocksdb,p2kv}/*.jfr, the largest
# file of each directory being the processing JVM's): cache-*.txt from /tmp/s61/jfr, nocache-*.txt
# from /tmp/s61/jfr-nc.
PATTERN='RocksDBStore\.(put|get)$|org\.rocksdb\.RocksDB\.(get|put|write)$|io\.p2kv\.kafka\.P2kvKeyValueStore\.(put|get|writeBuffer|sortedBuffer|buffer)$|runAsCaller|KStreamReduceProcessor.process$|pollPhase$|ChangeLoggingKeyValueBytesStore.log$|NamedCache.evict$|Request.BatchWrite.addTo'
cd "$(dirname "$0")"
for run in cache:/tmp/s61/jfr nocache:/tmp/s61/jfr-nc; do
  for m in rocksdb p2kv; do
    f=$(ls -S "${run#*:}/$m"/*.jfr | head -1)
    jfr print --events jdk.ExecutionSample,jdk.NativeMethodSample --stack-depth 64 "$f" | python3 jfrsum.py "$PATTERN" > "${run%%:*}-$m.txt"
  done
done
