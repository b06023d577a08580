#!/bin/bash
# usage: run.sh HANDOFF : VT benchmark with schedstat samples of the JMH fork
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
v=$1
$J/java -jar /tmp/s50/exp.jar VirtualThreadPutBenchmark -p vthreads=256 -p target=p2kv -f 1 -wi 1 -w 2 -i 4 -r 2 -jvmArgsAppend -Dp2kv.exp.vthandoff=$v > jmh-$v.txt 2>&1 &
M=$!
for i in $(seq 1 100); do P=$(pgrep -f 'java.*ForkedMain' | head -1); [ -n "$P" ] && break; sleep 0.2; done
python3 ../../s42-vt/samp.py $P $v   # stop 42's sampler; then python3 ../../s42-vt/an.py TAG 1 4
wait $M
