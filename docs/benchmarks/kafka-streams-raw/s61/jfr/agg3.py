import sys, re, collections
# stream threads only (not their producers' network threads), Java and native samples
text = sys.stdin.read().replace('jdk.NativeMethodSample {', 'jdk.ExecutionSample {')
incl = collections.Counter(); n = 0
for e in text.split('jdk.ExecutionSample {')[1:]:
    m = re.search(r'sampledThread = "([^"]*)"', e)
    if not m or not re.search(r'StreamThread-\d+"?$', m.group(1).split(' (')[0].strip('"')): continue
    frames = re.findall(r'^\s+([\w.$<>]+)\(', e, re.M)
    if not frames: continue
    n += 1
    for f in set(frames): incl[f] += 1
print('stream-thread samples', n)
for f, c in incl.most_common():
    if re.search(sys.argv[1], f): print(f'{100*c/n:5.1f}% {f}')
