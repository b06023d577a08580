import re, sys, glob
# rows from the driver's final "round N mode: {...}" lines (skips warm-up results)
for f in sorted(glob.glob(sys.argv[1]), key=lambda x: int(re.search(r'(\d+)\.log$', x).group(1))):
    res = {}
    for line in open(f):
        m = re.match(r'round (\d+) (p2kv|rocksdb): \{(.*)\}$', line.strip())
        if m:
            res[m.group(2)] = dict(kv.split('=') for kv in m.group(3).split(', '))
            rnd = int(m.group(1))
    if len(res) < 2: continue
    p, k = res['p2kv'], res['rocksdb']
    g = lambda d, key: float(d.get(key, 'nan'))
    first = 'Kafka' if rnd % 2 else 'p2kv'
    print(f"| {rnd} ({first}) | {g(p,'processRecordsPerSec')/1e3:.1f} / {g(k,'processRecordsPerSec')/1e3:.1f} | {g(p,'processRecordsPerSec')/g(k,'processRecordsPerSec'):.2f}x "
          f"| {g(p,'processCpuUs.total'):.2f} / {g(k,'processCpuUs.total'):.2f} | {g(p,'processCpuUs.stream'):.2f} / {g(k,'processCpuUs.stream'):.2f} "
          f"| {g(p,'processCpuUs.rocksdbBackground'):.2f} / {g(k,'processCpuUs.rocksdbBackground'):.2f} "
          f"| {g(p,'processBrokerCpuSeconds'):.1f} ({g(p,'processBrokerJitSeconds'):.1f}) / {g(k,'processBrokerCpuSeconds'):.1f} ({g(k,'processBrokerJitSeconds'):.1f}) "
          f"| {g(p,'restoreRecordsPerSec')/g(k,'restoreRecordsPerSec'):.2f}x | {g(p,'processRssKb')/g(k,'processRssKb'):.2f}x | {g(p,'restoreRssKb')/g(k,'restoreRssKb'):.2f}x |")
