import sys, collections, re
f, root = sys.argv[1], sys.argv[2]
depth = int(sys.argv[3]) if len(sys.argv) > 3 else 3
samples = []; cur = None
for line in open(f, errors='replace'):
    if not line.strip():
        if cur: samples.append(cur); cur = None
        continue
    if not line.startswith('\t') and not line.startswith(' '):
        cur = [line.split()[0], []]
    else:
        parts = line.strip().split(None, 1)
        sym = parts[1] if len(parts) > 1 else '?'
        sym = re.sub(r'\+0x[0-9a-f]+', '', sym); sym = re.sub(r' \(.*\)$', '', sym)
        sym = re.sub(r'\(.*?\)', '()', sym)
        cur[1].append(sym[:110])
if cur: samples.append(cur)
n = len(samples)
c = collections.Counter()
for comm, st in samples:
    st = list(reversed(st))  # root first
    idx = next((i for i, s in enumerate(st) if root in s), None)
    if idx is None: continue
    path = tuple(st[idx+1: idx+1+depth])
    for d in range(len(path)+1):
        c[path[:d]] += 1
for k, v in sorted(c.items()):
    if v / n >= 0.004:
        print(f'{100*v/n:5.1f}% ' + '  ' * len(k) + (k[-1] if k else root))
