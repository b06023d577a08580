#!/bin/bash
# issue 18, stop 37: restore buffers in files (new) against packed heap arrays (old, HEAD b63a8e8), interleaved
set -e
cd /work/main && OUT=/tmp/kb-new kafka-streams/run-benchmark.sh 2 > /tmp/c15w/kb-new-1.log 2>&1
cd /tmp/wt-old && OUT=/tmp/kb-old kafka-streams/run-benchmark.sh 2 > /tmp/c15w/kb-old-1.log 2>&1
cd /work/main && OUT=/tmp/kb-new2 kafka-streams/run-benchmark.sh 2 > /tmp/c15w/kb-new-2.log 2>&1
echo done > /tmp/c15w/KDONE
