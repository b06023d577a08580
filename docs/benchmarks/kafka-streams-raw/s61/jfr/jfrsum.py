"""Java and native samples of Kafka Streams' stream threads (not their producers' network threads)
in `jfr print --events jdk.ExecutionSample,jdk.NativeMethodSample --stack-depth 64 FILE` output.

  jfrsum.py PATTERN        each frame matching PATTERN: the share of samples that hold it
  jfrsum.py --under FRAME  the frames called under FRAME, at any depth, and the top frames (self)
                           of the samples that hold it
"""
import collections
import re
import sys


def stream_thread_samples(text):
    """The frames of each stream-thread sample, innermost first."""
    for e in text.replace('jdk.NativeMethodSample {', 'jdk.ExecutionSample {').split('jdk.ExecutionSample {')[1:]:
        m = re.search(r'sampledThread = "([^"]*)"', e)
        if not m or not re.search(r'StreamThread-\d+"?$', m.group(1).split(' (')[0].strip('"')):
            continue
        frames = re.findall(r'^\s+([\w.$<>]+)\(', e, re.M)
        if frames:
            yield frames


samples = list(stream_thread_samples(sys.stdin.read()))
n = len(samples)
if sys.argv[1] == '--under':
    target = sys.argv[2]
    under, top = collections.Counter(), collections.Counter()
    held = [f for f in samples if target in f]
    for frames in held:
        under.update(set(frames[:frames.index(target)]))
        top[frames[0]] += 1
    print('samples', n, 'in', target, len(held))
    for f, c in under.most_common(25):
        print(f'{100 * c / n:5.1f}% {f}')
    print('-- self')
    for f, c in top.most_common(12):
        print(f'{100 * c / n:5.1f}% {f}')
else:
    held = collections.Counter()
    for frames in samples:
        held.update(set(frames))
    print('stream-thread samples', n)
    for f, c in held.most_common():
        if re.search(sys.argv[1], f):
            print(f'{100 * c / n:5.1f}% {f}')
