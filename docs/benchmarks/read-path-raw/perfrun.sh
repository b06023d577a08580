#!/bin/bash
# perfrun.sh JAR OUT BENCH ARGS... : perf-record a JMH run (one fork) with JIT symbol maps
JAR=$1; OUT=$2; shift 2
perf record -F 499 -g -o $OUT.data -- java -jar $JAR "$@" -f 1 -jvmArgsAppend "-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer" > $OUT.log 2>&1
