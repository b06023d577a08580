# Sums each round's GC logs (-Xlog:gc*) of the two restore JVMs: pauses, pause time, the most heap
# committed and the most heap in use right after a pause. Children start in the order
# process/restore of the first store, then of the second; odd rounds run Kafka's stores first.
import re, glob, sys
base = sys.argv[1]
print('| variant-round | store | GC pauses | pause time (s) | most committed (MiB) | most in use after a pause (MiB) |')
print('| --- | --- | ---: | ---: | ---: | ---: |')
for d in sorted(glob.glob(base + '/*-*')):
    logs = sorted(glob.glob(d + '/gc-*.log'), key=lambda f: int(re.search(r'gc-(\d+)', f).group(1)))
    if len(logs) != 4:
        continue
    rnd = int(d.rsplit('-', 1)[1])
    order = ['Kafka', 'Kafka', 'p2kv', 'p2kv'] if rnd % 2 else ['p2kv', 'p2kv', 'Kafka', 'Kafka']
    for i in (1, 3):
        txt = open(logs[i]).read()
        pauses = re.findall(r'GC\(\d+\) Pause \S+.*? (\d+)M->(\d+)M\((\d+)M\) ([\d.]+)ms', txt)
        n = len(pauses)
        t = sum(float(p[3]) for p in pauses) / 1000
        comm = max(int(p[2]) for p in pauses)
        used = max(int(p[1]) for p in pauses)
        print(f'| {d.split("/")[-1]} | {order[i]} | {n} | {t:.2f} | {comm} | {used} |')
