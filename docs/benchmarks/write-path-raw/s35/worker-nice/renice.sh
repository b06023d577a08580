#!/usr/bin/env bash
# renice p2kv-shard-* threads of any JVM to $NICE, every 0.5 s, until killed
while true; do
  for t in /proc/[0-9]*/task/[0-9]*; do
    c=$(cat $t/comm 2>/dev/null) || continue
    case "$c" in p2kv-shard-*) tid=${t##*/}; cur=$(awk '{print $19}' $t/stat 2>/dev/null); [ "$cur" != "$NICE" ] && renice -n $NICE -p $tid >/dev/null 2>&1;; esac
  done
  sleep 0.5
done
