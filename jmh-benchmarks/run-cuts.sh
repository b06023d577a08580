#!/usr/bin/env bash
# Runs CutBenchmark (consistent cuts under 16 writers: none, snapshots, checkpoints back to back),
# 3 forks as 3 rounds, keeps the raw JSON and log in docs/benchmarks/cuts-raw/, and renders the
# tables of docs/benchmarks/CUTS.md, which is also RESULTS.md's "Consistent cuts" section
# (run-suite.sh copies CUTS.md in when it regenerates RESULTS.md). About 4 minutes on 2 cores.
#
#   jmh-benchmarks/run-cuts.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JAVA=${JAVA:-java}
JAR=jmh-benchmarks/target/benchmarks.jar
OUT=docs/benchmarks
RAW=$OUT/cuts-raw
if [ ! -f "$JAR" ]; then
  mvn -B -q -DskipTests -pl jmh-benchmarks -am package
fi
rm -rf "$RAW"
mkdir -p "$RAW"
CMD="$JAVA -jar $JAR CutBenchmark -p cut=none,snapshot,checkpoint -f 3 -wi 1 -w 3 -i 3 -r 3 -rf json -rff $RAW/cuts.json"
echo "$CMD" > "$RAW/command.txt"
echo "== $CMD"
$CMD 2>&1 | tee "$RAW/log.txt" | grep -E "^(Benchmark|CutBenchmark\.)|^# (cut=|p2kv PUT)|Exception" || true
"$JAVA" -cp "$JAR" io.p2kv.bench.report.CutsReport "$OUT" "$RAW"
