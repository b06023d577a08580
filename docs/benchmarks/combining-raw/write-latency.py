#!/usr/bin/env python3
"""Per YCSB raw directory (run-ycsb.sh output): for each thread count and phase, the median over
rounds of p2kv/RocksDB throughput and the mean latency of the phase's writes (UPDATE in B,
INSERT in LOAD, D, E) on both sides, from YCSB's own [OVERALL] and [OP] AverageLatency lines.

  python3 docs/benchmarks/combining-raw/write-latency.py DIR...
"""
import glob, os, re, statistics, sys

WRITE = {'load': 'INSERT', 'b': 'UPDATE', 'd': 'INSERT', 'e': 'INSERT'}


def num(text, pattern):
    m = re.search(pattern, text)
    return float(m.group(1)) if m else None


def run(path):
    s = open(path).read()
    return s


for d in sys.argv[1:]:
    print(f'## {d}')
    print('| threads | phase | rounds | throughput ratio (median) | p2kv write mean us | RocksDB write mean us | write latency ratio |')
    print('| ---: | --- | ---: | ---: | ---: | ---: | ---: |')
    keys = set()
    for f in glob.glob(os.path.join(d, 'p2kv-t*-*-r*.txt')):
        m = re.match(r'p2kv-t(\d+)-(\w+)-r(\d+)\.txt', os.path.basename(f))
        keys.add((int(m.group(1)), m.group(2)))
    for t, ph in sorted(keys, key=lambda k: (k[0], ['load', 'a', 'b', 'c', 'd', 'e', 'f'].index(k[1]) if k[1] in 'abcdef' or k[1] == 'load' else 9)):
        ratios, pl, rl = [], [], []
        for f in sorted(glob.glob(os.path.join(d, f'p2kv-t{t}-{ph}-r*.txt'))):
            g = f.replace('/p2kv-', '/rocksdb-')
            if not os.path.exists(g):
                continue
            p, r = run(f), run(g)
            tp = num(p, r'\[OVERALL\], Throughput\(ops/sec\), ([0-9.]+)')
            tr = num(r, r'\[OVERALL\], Throughput\(ops/sec\), ([0-9.]+)')
            ratios.append(tp / tr)
            op = WRITE.get(ph)
            if op:
                lp = num(p, r'\[%s\], AverageLatency\(us\), ([0-9.]+)' % op)
                lr = num(r, r'\[%s\], AverageLatency\(us\), ([0-9.]+)' % op)
                if lp and lr:
                    pl.append(lp)
                    rl.append(lr)
        if not ratios:
            continue
        if pl:
            mp, mr = statistics.median(pl), statistics.median(rl)
            lat = f'{mp:,.0f} | {mr:,.0f} | {mp / mr:.2f}x'
        else:
            lat = '- | - | -'
        print(f'| {t} | {ph.upper()} | {len(ratios)} | {statistics.median(ratios):.2f}x | {lat} |')
    print()
