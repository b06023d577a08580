import sys, re, collections
# callees (one level down and self) under a given frame, stream threads only
text = sys.stdin.read().replace('jdk.NativeMethodSample {', 'jdk.ExecutionSample {')
target = sys.argv[1]; sub = collections.Counter(); selfc = collections.Counter(); n = 0; t = 0
for e in text.split('jdk.ExecutionSample {')[1:]:
    m = re.search(r'sampledThread = "([^"]*)"', e)
    if not m or not re.search(r'StreamThread-\d+"?$', m.group(1).split(' (')[0].strip('"')): continue
    frames = re.findall(r'^\s+([\w.$<>]+)\(', e, re.M)
    n += 1
    if target in frames:
        t += 1
        i = frames.index(target)
        chain = frames[:i]
        for f in set(chain): sub[f] += 1
        selfc[frames[0]] += 1
print('samples', n, 'in', target, t)
for f, c in sub.most_common(25): print(f'{100*c/n:5.1f}% {f}')
print('-- self')
for f, c in selfc.most_common(12): print(f'{100*c/n:5.1f}% {f}')
