#!/bin/bash
# Issue 19's targets on 5f1073f (stop 39): 3 rounds of run-write-path.sh and run-async-callbacks.sh, each under the CPU lock.
cd /work/main
for r in 1 2 3; do
  JAR=/tmp/s39/jars/new.jar RAW=/tmp/s39/wp/raw ROUND=$r flock -x /tmp/p2kv-cpu.lock jmh-benchmarks/run-write-path.sh
  echo "write-path round $r $(date +%T)"
  JAR=/tmp/s39/jars/new.jar TAG=s39 ROUND=$r RAW=/tmp/s39/wp/async flock -x /tmp/p2kv-cpu.lock jmh-benchmarks/run-async-callbacks.sh
  echo "async round $r $(date +%T)"
done
