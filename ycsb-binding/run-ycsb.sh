#!/usr/bin/env bash
# The p2KVS paper's YCSB comparison (Table 1: LOAD, A-F) on this machine: p2kv against one plain
# RocksDB instance with the same per-instance options, both driven by the real YCSB client
# (site.ycsb:core 0.17.0), with 8 and 32 client threads, in one run. Writes
# docs/benchmarks/YCSB.md (throughput, ratio to the baseline, p99 latency per operation, the
# commands) and keeps YCSB's raw output in docs/benchmarks/ycsb-raw/.
#
#   ycsb-binding/run-ycsb.sh                 # the committed comparison (~12 min on 2 idle cores: 3 rounds)
#   QUICK=1 ycsb-binding/run-ycsb.sh         # 200 K records, 100 K operations: checks the script (~1 min)
#   ycsb-binding/run-ycsb.sh sweep           # p2kv only, shards x read path x idling, 32 threads (~7 min); writes
#                                            # docs/benchmarks/ycsb-raw/sweep/ (the report lists it)
#
# Environment: JAVA (default java, JDK 17+), THREADS (default "8 32"), ROUNDS (default 3: the whole
# sequence, fresh stores each time, so the report gives medians and the spread), DATA (store directories;
# default a new directory under /tmp, deleted at the end), P2KV_PROPS (p2kv.* settings of the
# comparison, given to both bindings; see README "YCSB"), REBUILD=1 (rebuild the binding),
# PHASES (default "load a b c d e f"; load always runs first; "es" is E without its inserts), FIELDLENGTH (bytes of the one field,
# default the workloads' 96: ~128-byte records; 1000 gives ~1 KB records), RECORDS (record count,
# default the workloads' 2,000,000), NAME (writes docs/benchmarks/YCSB-NAME.md and ycsb-raw-NAME/
# instead of YCSB.md and ycsb-raw/), OPS (operations per run phase, E a sixth of it; default the
# workloads' 1,000,000), WARMUP (seconds; when not 0 the phases print YCSB's status lines every second
# and the report adds the throughput after the first WARMUP seconds of each run, past the JIT's warm-up).
# On this 2-core VM one run of a phase varies by 15-30 % from the next (CPU speed of the shared
# host, scheduling of 8-32 threads on 2 cores), hence the rounds. Each phase is one YCSB JVM; for
# every phase both stores run back to back, so both see the same machine, and which goes first
# alternates from phase to phase and from round to round (a store measured always first or always
# second would carry any drift of the machine's speed in one direction). Before each run phase both stores are settled (io.p2kv.ycsb.Settle:
# flush, wait for pending compactions), so no phase pays for the previous one's background work.
# The load average before each phase and the CPU other processes use during it are recorded.
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=${1:-compare}
JAVA=${JAVA:-java}
THREADS=${THREADS:-"8 32"}
ROUNDS=${ROUNDS:-3}
# The one configuration of the committed comparison: p2kv's defaults on this machine (1 shard on
# 2 cores, maxBatch 128, direct reads, the adaptive size-aware value separation), stated explicitly
# where they are settings so the report shows them. No p2kv.valueseparation: p2kv uses its default
# policy and the baseline keeps every value inline, as a user of plain RocksDB runs it. Add
# p2kv.valueseparation=none to compare with values inline on both sides.
P2KV_PROPS=${P2KV_PROPS:-"p2kv.shards=1 p2kv.readpath=direct p2kv.maxbatch=128 p2kv.sync=false p2kv.memorybudgetmb=512"}
PHASES=${PHASES:-"load a b c d e f"}
# Each round's stores are new, and the run phases read what the load wrote: the load always runs
# first, whether PHASES names it or not.
PHASES="load $(for ph in $PHASES; do [ "$ph" = load ] || printf '%s ' "$ph"; done)"
PHASES=${PHASES% }
WARMUP=${WARMUP:-0}
JVM_OPTS=${JVM_OPTS:-"-Xms1g -Xmx1g"}
JAR=ycsb-binding/target/p2kv-ycsb-binding.jar
CP="$JAR:ycsb-binding/target/lib/*"
WORKLOADS=ycsb-binding/workloads
OUT=docs/benchmarks

if [ ! -f "$JAR" ] || [ "${REBUILD:-0}" = 1 ]; then
  # Through the reactor (-am), so the binding runs against the p2kv-core of this checkout.
  mvn -B -q -DskipTests -pl ycsb-binding -am package
fi

if [ "${QUICK:-0}" = 1 ]; then
  SIZE=(-p recordcount=200000)
  OPS=100000
else
  SIZE=()
  OPS=${OPS:-}
fi
if [ -n "${RECORDS:-}" ]; then SIZE=(-p recordcount="$RECORDS"); fi
if [ -n "${FIELDLENGTH:-}" ]; then SIZE+=(-p fieldlength="$FIELDLENGTH"); fi
SUFFIX=${NAME:+-$NAME}

case "$MODE" in
  compare) RAW=$OUT/ycsb-raw$SUFFIX ;;
  sweep) RAW=$OUT/ycsb-raw/sweep ;;
  *) echo "usage: $0 [compare|sweep]" >&2; exit 2 ;;
esac
rm -rf "$RAW"
mkdir -p "$RAW"
OWN_DATA=0
if [ -z "${DATA:-}" ]; then
  DATA=$(mktemp -d /tmp/p2kv-ycsb.XXXXXX)
  OWN_DATA=1
fi
cleanup() { if [ "$OWN_DATA" = 1 ]; then rm -rf "$DATA"; fi; }
trap cleanup EXIT

TIMES=$RAW/.times
COMMANDS=$RAW/commands.txt
LOADAVG=$RAW/loadavg.txt
: > "$COMMANDS"
: > "$LOADAVG"

class_of() {
  case $1 in
    p2kv*) echo io.p2kv.ycsb.P2kvYcsbClient ;;
    rocksdb) echo io.p2kv.ycsb.RocksDbYcsbClient ;;
  esac
}

# settle STORE-LABEL DIR PROPS...: flush and wait for compactions (io.p2kv.ycsb.Settle) so that
# the next phase does not pay for the previous one's background work.
settle() {
  local label=$1 dir=$2
  shift 2
  local cmd=("$JAVA" $JVM_OPTS -cp "$CP" io.p2kv.ycsb.Settle "$(class_of "$label")" "p2kv.dir=$dir" "$@")
  echo "${cmd[*]}" >> "$COMMANDS"
  echo "$label $(basename "$dir"): $("${cmd[@]}" 2>&1 | grep '^settled' || echo 'settle FAILED')" >> "$RAW/settle.txt"
}

# phase STORE-LABEL THREADS PHASE(load|a..f) ROUND DIR PROPS...
phase() {
  local label=$1 threads=$2 ph=$3 round=$4 dir=$5
  shift 5
  local workload=$WORKLOADS/p2kvs-$ph mode=-t
  [ "$ph" = load ] && mode=-load
  local ops=()
  if [ -n "$OPS" ] && [ "$ph" != load ]; then
    if [ "$ph" = e ] || [ "$ph" = es ]; then ops=(-p operationcount=$((OPS / 6))); else ops=(-p operationcount=$OPS); fi
  fi
  local props=() prop
  for prop in "$@"; do props+=(-p "$prop"); done
  local status=()
  if [ "$WARMUP" != 0 ]; then status=(-s -p status.interval=1); fi
  local cmd=("$JAVA" $JVM_OPTS -cp "$CP" site.ycsb.Client "$mode" -db "$(class_of "$label")" -P "$workload"
    -threads "$threads" -p "p2kv.dir=$dir" "${props[@]}" "${SIZE[@]}" "${ops[@]}" "${status[@]}")
  local load
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "${cmd[*]}" >> "$COMMANDS"
  local f=$RAW/$label-t$threads-$ph-r$round.txt
  local start=$SECONDS busy0 ours0 busy1 ours1 wall0 wall1
  # `times` runs in this shell (not in a $(...) subshell, which would have no children).
  busy0=$(busy_jiffies); times > "$TIMES"; ours0=$(children_centis); wall0=$(date +%s%N)
  "${cmd[@]}" > "$f" 2>&1 || true
  if ! grep -q '^\[OVERALL\]' "$f"; then
    # The JVM died before reporting (killed from outside: this machine is shared). Run the phase
    # again once, from a fresh store for a load; the report lists the retry.
    mv "$f" "$f.failed"
    echo "retry: $label t=$threads $ph r=$round died before [OVERALL]" | tee -a "$RAW/retries.txt"
    if [ "$ph" = load ]; then rm -rf "$dir"; fi
    busy0=$(busy_jiffies); times > "$TIMES"; ours0=$(children_centis); wall0=$(date +%s%N)
    "${cmd[@]}" > "$f" 2>&1 || true
  fi
  busy1=$(busy_jiffies); times > "$TIMES"; ours1=$(children_centis); wall1=$(date +%s%N)
  # CPU the rest of the machine used meanwhile, in cores (/proc/stat counts 1/100 s per core).
  local others
  others=$(awk -v b=$((busy1 - busy0)) -v o=$((ours1 - ours0)) -v w=$((wall1 - wall0)) \
    'BEGIN { c = (b - o) / 100 / (w / 1e9); printf "%.2f", c < 0 ? 0 : c }')
  echo "$label t=$threads $ph r=$round $load others=$others" >> "$LOADAVG"
  local tput
  tput=$(grep -m1 '^\[OVERALL\], Throughput' "$f" | awk -F', ' '{printf "%.0f", $3}' || true)
  printf '%-14s t=%-3s %-5s r%s %8s ops/s  (%ds, load before %s, other processes %s cores)\n' "$label" "$threads" \
    "$ph" "$round" "${tput:-FAILED}" $((SECONDS - start)) "${load%% *}" "$others"
}

# Busy CPU time of the whole machine, in 1/100 s (user + nice + system + irq + softirq + steal).
busy_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }

# CPU time (user + system) of this script's finished children, in 1/100 s, from `times` output.
children_centis() {
  tail -1 "$TIMES" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] } printf "%d", t * 100 }'
}

START=$SECONDS
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  # Changes under docs/benchmarks are this script's own output (cleared above), not code changes.
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet -- . ':!docs/benchmarks' 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "java: $("$JAVA" -version 2>&1 | head -1)"
  echo "cpus: $(nproc) x $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "mode: $MODE$([ "${QUICK:-0}" = 1 ] && echo ' QUICK=1')"
  if [ "$MODE" = compare ]; then
    echo "threads: $THREADS"
    echo "rounds: $ROUNDS"
    echo "p2kv properties: $P2KV_PROPS"
    echo "phases: $PHASES"
    echo "size overrides: ${SIZE[*]:-none}"
    echo "operations per run phase: ${OPS:-as in the workloads} (E: a sixth of it)"
  else
    echo "threads: 32"
    echo "rounds: 1"
    echo "p2kv properties: per variant (see the script)"
  fi
  echo "jvm: $JVM_OPTS"
  if [ "$WARMUP" != 0 ]; then echo "warmup: $WARMUP s"; fi
} > "$RAW/meta.txt"
cat "$RAW/meta.txt"

if [ "$MODE" = compare ]; then
  for t in $THREADS; do
    for round in $(seq 1 "$ROUNDS"); do
      pdir=$DATA/p2kv-$t
      rdir=$DATA/rocksdb-$t
      rm -rf "$pdir" "$rdir"
      n=0
      for ph in $PHASES; do
        if [ "$ph" != load ]; then
          # shellcheck disable=SC2086
          settle p2kv "$pdir" $P2KV_PROPS
          # shellcheck disable=SC2086
          settle rocksdb "$rdir" $P2KV_PROPS
        fi
        # p2kv first when round + phase index (load = 0) is odd, the baseline first otherwise:
        # each store goes first in about half of every phase's rounds.
        if [ $(((round + n) % 2)) = 1 ]; then order="p2kv rocksdb"; else order="rocksdb p2kv"; fi
        for store in $order; do
          # shellcheck disable=SC2086
          phase "$store" "$t" "$ph" "$round" "$DATA/$store-$t" $P2KV_PROPS
        done
        n=$((n + 1))
      done
      rm -rf "$pdir" "$rdir"
    done
  done
else
  # p2kv alone, 32 threads, one round: shard count x read path, workers and callers that keep
  # polling (yielding) for 1 ms instead of parking after 50 us, and p2kv's default value
  # separation (size-aware, adaptive) instead of none.
  NS=p2kv.valueseparation=none
  for variant in "s1-direct p2kv.shards=1 p2kv.readpath=direct $NS" "s1-worker p2kv.shards=1 p2kv.readpath=worker $NS" \
    "s2-direct p2kv.shards=2 p2kv.readpath=direct $NS" "s2-worker p2kv.shards=2 p2kv.readpath=worker $NS" \
    "s1-direct-yield p2kv.shards=1 p2kv.readpath=direct p2kv.idlemode=yield p2kv.yieldwaitnanos=1000000 $NS" \
    "s1-direct-sizeaware p2kv.shards=1 p2kv.readpath=direct p2kv.valueseparation=sizeaware"; do
    set -- $variant
    name=$1
    shift
    rm -rf "$DATA/sweep"
    for ph in load a b c d e f; do
      if [ "$ph" != load ]; then settle "p2kv-$name" "$DATA/sweep" "$@"; fi
      phase "p2kv-$name" 32 "$ph" 1 "$DATA/sweep" "$@"
    done
    rm -rf "$DATA/sweep"
  done
fi
rm -f "$TIMES"
echo "took $(( (SECONDS - START) / 60 )) min $(( (SECONDS - START) % 60 )) s" | tee -a "$RAW/meta.txt"

"$JAVA" -cp "$CP" io.p2kv.ycsb.YcsbReport "$OUT/ycsb-raw$SUFFIX" "$OUT/YCSB$SUFFIX.md" "$WORKLOADS"
echo "wrote $OUT/YCSB$SUFFIX.md"
