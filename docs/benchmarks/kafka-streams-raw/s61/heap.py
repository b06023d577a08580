"""Per round and store: RSS after processing, the heap G1 had committed then, and the rest (MiB)."""
import glob, re, sys
for pattern in sys.argv[1:]:
    for path in sorted(glob.glob(pattern)):
        row = []
        for line in open(path):
            m = re.match(r'^(p2kv|rocksdb) RESULT processRecords=.*processRssKb=(\d+).*processHeapCommittedKb=(\d+)', line)
            if m:
                rss, heap = int(m.group(2)) // 1024, int(m.group(3)) // 1024
                row.append(f'{m.group(1)} {rss} = heap {heap} + {rss - heap}')
        print(path, ' | '.join(row))
