import re,sys
# usage: memtab.py LOG... (run12.sh's logs, with -Dbench.memdetail=true)  -> per log and store: memory breakdown after processing and after restore (MiB)
def kv(line):
    return dict(re.findall(r'(\w+)=([\d.]+)', line))
print("| round | store | phase | records/s | RSS | heap committed | JVM non-heap (NMT) | malloc in use + mmap | malloc free, kept | RSS after malloc_trim |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for f in sys.argv[1:]:
    label=f.rsplit('/',1)[-1].removesuffix('.log')
    for line in open(f):
        m=re.match(r'^(p2kv|rocksdb) RESULT (.*)',line)
        if not m: continue
        store,d=m.group(1),kv(m.group(2))
        ph='process' if 'processRecords' in d else 'restore'
        if ph+'MallocInUseKb' not in d: continue  # a run without mallinfo2 (12M/first-1)
        mb=lambda k: int(d[ph+k])//1024
        rate=d[ph+'RecordsPerSec']
        # the experiment's build printed arena and mmap apart (MallocMmapKb); MemoryBreakdown sums them
        inuse=int(d[ph+'MallocInUseKb'])+int(d.get(ph+'MallocMmapKb',0))
        print(f"| {label} | {'p2kv' if store=='p2kv' else 'Kafka'} | after {ph} | {int(rate):,} | {mb('RssKb')} | {mb('HeapCommittedKb')} | {mb('NmtNonHeapKb')} | {inuse//1024} | {mb('MallocFreeKb')} | {mb('RssAfterTrimKb')} |")
