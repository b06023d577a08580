#!/bin/bash
# The interleaved rounds of section 5: before (main cdc8e9d, /work/wt-scan4-old) and after (this
# branch, /work/wt-scan4), 1 caller three times each, then 16 callers once each.
D=$(cd "$(dirname "$0")" && pwd)
$D/jmh.sh /work/wt-scan4-old before-r3
$D/jmh.sh /work/wt-scan4 after-r1
$D/jmh.sh /work/wt-scan4-old before-r4
$D/jmh.sh /work/wt-scan4 after-r2
$D/jmh.sh /work/wt-scan4-old before-r5
$D/jmh.sh /work/wt-scan4 after-r3
$D/jmh.sh /work/wt-scan4-old before-t16 16
$D/jmh.sh /work/wt-scan4 after-t16 16
# two more interleaved pairs, queued after the above had shown a spread of 0.45-0.73
$D/jmh.sh /work/wt-scan4-old before-r6
$D/jmh.sh /work/wt-scan4 after-r4
$D/jmh.sh /work/wt-scan4-old before-r7
$D/jmh.sh /work/wt-scan4 after-r5
