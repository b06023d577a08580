# comp-summary.py: C2 (level 4) compile durations from `jfr print --events jdk.Compilation`, by
# package and by method. Usage: zcat compilations-X.txt.gz | python3 comp-summary.py
# Durations are wall time of the compiler thread (it shares 2 cores with 8 YCSB threads), so only
# their proportions mean something.
import sys, re, collections
txt = sys.stdin.read()
ev = re.findall(r'duration = ([\d.]+) (ms|s|us|ns).*?method = (\S+).*?compileLevel = (\d)', txt, re.S)
tot = collections.Counter(); n = collections.Counter(); per = collections.Counter()
for d, u, m, l in ev:
    if l != '4':
        continue
    v = float(d) * {'s': 1000, 'ms': 1, 'us': 0.001, 'ns': 1e-6}[u]
    pkg = next((p for p in ('io.p2kv.internal', 'io.p2kv', 'org.rocksdb', 'site.ycsb') if m.startswith(p)), 'other')
    tot[pkg] += v; n[pkg] += 1; per[m] += v
print('C2 ms by package', {k: round(v) for k, v in tot.items()}, 'compilations', dict(n))
for m, v in per.most_common(12):
    print('  %6.0f ms %s' % (v, m))
