#!/bin/bash
# rounds A..B; each round under the exclusive CPU lock, modes in rotating order
for r in $(seq $1 $2); do
  flock -x /tmp/p2kv-cpu.lock bash -c "
    case \$(( $r % 3 )) in
      0) order='none pin iso' ;;
      1) order='iso none pin' ;;
      2) order='pin iso none' ;;
    esac
    echo round $r rocksdb: \$(/tmp/s55/iso.sh none rocksdb r$r-rocksdb)
    for m in \$order; do echo round $r p2kv \$m: \$(/tmp/s55/iso.sh \$m p2kv r$r-\$m); done
  "
done
