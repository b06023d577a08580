import sys, re, collections
txt = sys.stdin.read()
ev = re.findall(r'duration = ([\d.]+) (ms|s|us|ns).*?method = (.+?)\n.*?compileLevel = (\d).*?codeSize = ([\d.]+) (kB|bytes).*?inlinedBytes = ([\d.]+) (kB|bytes)', txt, re.S)
per = collections.Counter(); cnt = collections.Counter(); code = collections.Counter()
tot = 0
for d, u, m, l, cs, cu, ib, iu in ev:
    if l != '4': continue
    v = float(d) * {'s': 1000, 'ms': 1, 'us': 0.001, 'ns': 1e-6}[u]
    per[m.strip()] += v; cnt[m.strip()] += 1; tot += v
    code[m.strip()] += float(cs) * (1024 if cu == 'kB' else 1)
print('total C2 ms %.0f in %d compilations' % (tot, sum(cnt.values())))
for m, v in per.most_common(int(sys.argv[1]) if len(sys.argv) > 1 else 25):
    print('  %6.0f ms x%d %6.1f kB %s' % (v, cnt[m], code[m] / 1024, m[:150]))
