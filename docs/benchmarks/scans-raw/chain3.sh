#!/bin/bash
# round 2: after first, then before (order swapped vs round 1), t8 and t32
/tmp/scans/y.sh after-t8-r2 8 0
/tmp/scans/yb.sh before-t8-r2 8
/tmp/scans/yb.sh before-t32-r2 32
/tmp/scans/y.sh after-t32-r2 32 0
