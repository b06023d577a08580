#!/bin/bash
# usage: prof.sh JAR BENCH OUTPREFIX [extra jmh args]
J=$1; B=$2; O=$3; shift 3
java -jar $J "$B" -t 16 -f 1 -wi 1 -w 3 -i 1 -r 14 "$@" \
  -jvmArgsAppend "-XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" > $O.jmh.txt 2>&1 &
JP=$!
while ! grep -q '^Iteration   1' $O.jmh.txt 2>/dev/null; do sleep 0.5; if ! kill -0 $JP 2>/dev/null; then break; fi; done
sleep 0.5
PID=$(pgrep -f ForkedMain | head -1)
echo "forked pid $PID" >> $O.jmh.txt
perf record -F 499 -g -p $PID -o $O.perf.data -- sleep 10 > $O.perfrec.txt 2>&1
wait $JP
cp /tmp/perf-$PID.map $O.map 2>/dev/null
perf script -i $O.perf.data > $O.script.txt 2>/dev/null
