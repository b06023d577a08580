import sys, collections, re
f = sys.argv[1]
samples = []
cur = None
for line in open(f, errors='replace'):
    if not line.strip():
        if cur: samples.append(cur); cur = None
        continue
    if not line.startswith('\t') and not line.startswith(' '):
        comm = line.split()[0]
        cur = [comm, []]
    else:
        parts = line.strip().split(None, 1)
        sym = parts[1] if len(parts) > 1 else '?'
        sym = re.sub(r'\+0x[0-9a-f]+', '', sym)
        cur[1].append(sym)
if cur: samples.append(cur)
n = len(samples)
print('samples', n)
bythread = collections.Counter()
for c, st in samples:
    t = 'worker' if c.startswith('p2kv-shard') else ('jmh' if 'jmh-worker' in c or c.startswith('UpdateBench') else c)
    bythread[t] += 1
print('by thread', bythread.most_common(10))
def cat(st):
    s = ' '.join(st)
    return s
# self
selfc = collections.Counter(st[0] if st else '?' for c, st in samples)
print('--- self top')
for k, v in selfc.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 30):
    print(f'{100*v/n:5.1f}% {k[:150]}')
# inclusive for some markers
marks = sys.argv[3].split(',') if len(sys.argv) > 3 else []
for m in marks:
    for grp in [None, 'worker', 'caller']:
        cnt = 0
        for c, st in samples:
            isw = c.startswith('p2kv-shard')
            if grp == 'worker' and not isw: continue
            if grp == 'caller' and isw: continue
            if any(m in s for s in st): cnt += 1
        print(f'incl {m} [{grp}]: {100*cnt/n:.1f}%')
