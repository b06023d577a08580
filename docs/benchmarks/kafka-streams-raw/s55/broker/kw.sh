#!/bin/bash
cd /work/main
OUT=/tmp/s55/kw0 kafka-streams/run-benchmark.sh 2 > /tmp/s55/kw0.txt 2>&1
OUT=/tmp/s55/kw1 P2KV_BENCH_WARMUP=500000 kafka-streams/run-benchmark.sh 2 > /tmp/s55/kw1.txt 2>&1
