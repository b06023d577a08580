import sys, re, glob, statistics, collections
# ysum.py DIR : per build, per round: p2kv and RocksDB throughput, ratio, CPU s (user+sys), scan/insert mean latency
d = sys.argv[1]; rows = collections.defaultdict(dict)
for f in glob.glob(d + '/*-t*-r*.txt'):
    m = re.match(r'.*/(ycsb-[a-z0-9]+)-(p2kv|rocksdb)-t(\d+)-r(\d+)\.txt', f)
    if not m: continue
    b, s, t, r = m.groups(); txt = open(f).read()
    thr = float(re.search(r'\[OVERALL\], Throughput\(ops/sec\), ([\d.]+)', txt).group(1))
    cpu = re.search(r'cpu_user ([\d.]+) cpu_sys ([\d.]+)', txt); cpu = float(cpu.group(1)) + float(cpu.group(2))
    lat = {k: float(v) for k, v in re.findall(r'\[(SCAN|INSERT)\], AverageLatency\(us\), ([\d.]+)', txt)}
    rows[(b, t)][(int(r), s)] = (thr, cpu, lat)
for (b, t), d2 in sorted(rows.items()):
    ratios = []; cr = []
    for r in sorted({k[0] for k in d2}):
        p, q = d2[(r, 'p2kv')], d2[(r, 'rocksdb')]
        ratios.append(p[0] / q[0]); cr.append(q[1] / p[1])
        print("%s t=%s r%d  p2kv %6.0f ops/s cpu %5.1f s scan %5.1f us insert %6.0f us | rocksdb %6.0f ops/s cpu %5.1f s scan %5.1f us insert %5.0f us | ratio %.2f" % (
            b, t, r, p[0], p[1], p[2].get('SCAN', 0), p[2].get('INSERT', 0), q[0], q[1], q[2].get('SCAN', 0), q[2].get('INSERT', 0), p[0] / q[0]))
    print("%s t=%s median ratio %.2f (rounds %s); CPU ratio rocksdb/p2kv median %.2f" % (b, t, statistics.median(ratios), ' '.join('%.2f' % x for x in ratios), statistics.median(cr)))
