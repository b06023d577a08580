import sys, collections, re
# usage: perf script -F comm,tid,ip,sym,dso | agg.py COMMPREFIX [pattern ...]
prefix = sys.argv[1]; pats = sys.argv[2:]
stacks = []; cur = None; take = False
for line in sys.stdin:
    if not line.strip():
        if cur is not None and take: stacks.append(cur)
        cur = None; continue
    if not line[0].isspace():
        take = line.startswith(prefix); cur = []; continue
    if cur is not None:
        l = line.strip(); parts = l.split(' ', 1)
        cur.append(parts[1] if len(parts) > 1 else l)
if cur and take: stacks.append(cur)
n = len(stacks); print("samples", n)
leafd = collections.Counter(); leafs = collections.Counter()
for s in stacks:
    if not s: continue
    m = re.search(r'\(([^()]*)\)$', s[0]); d = m.group(1) if m else '?'
    d = re.sub(r'librocksdbjni\d+', 'librocksdbjni', d); d = re.sub(r'tid \d+', '', d)
    leafd[d] += 1; leafs[re.sub(r'\s*\([^()]*\)$', '', s[0])[:110]] += 1
for k, v in leafd.most_common(8): print("%6.2f%% leaf-dso %s" % (100.0*v/n, k))
for k, v in leafs.most_common(25): print("%6.2f%% leaf %s" % (100.0*v/n, k))
for p in pats:
    c = sum(1 for s in stacks if any(p in f for f in s))
    print("%6.2f%% incl %s" % (100.0*c/n, p))
